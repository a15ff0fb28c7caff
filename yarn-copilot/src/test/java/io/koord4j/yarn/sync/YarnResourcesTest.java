package io.koord4j.yarn.sync;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class YarnResourcesTest {
  private static final long MIB = 1L << 20;

  @Test
  void roundsBatchResourcesDownToWholeVcoresAndMibSoThatYarnNeverGetsMoreThanItsShare() {
    assertThat(YarnResources.of(new BatchResources(4000, 8192 * MIB))).isEqualTo(new YarnResources(4, 8192));
    assertThat(YarnResources.of(new BatchResources(4999, 8193 * MIB - 1))).isEqualTo(new YarnResources(4, 8192));
    assertThat(YarnResources.of(new BatchResources(999, MIB - 1))).isEqualTo(YarnResources.ZERO);
    assertThat(YarnResources.of(BatchResources.ZERO)).isEqualTo(YarnResources.ZERO);
  }

  @Test
  void convertsBackExactlyInMillicoresAndBytes() {
    assertThat(new YarnResources(3, 1536).toBatch()).isEqualTo(new BatchResources(3000, 1536 * MIB));
  }

  @Test
  void batchResourcesFitWhenBothAreWithin() {
    BatchResources node = new BatchResources(2000, 2048 * MIB);

    assertThat(new BatchResources(2000, 2048 * MIB).fitsIn(node)).isTrue();
    assertThat(new BatchResources(2001, MIB).fitsIn(node)).isFalse();
    assertThat(new BatchResources(0, 2049 * MIB).fitsIn(node)).isFalse();
  }

  @Test
  void takingMoreThanThereIsLeavesZero() {
    assertThat(new BatchResources(2000, 10).minus(new BatchResources(3000, 4)))
        .isEqualTo(new BatchResources(0, 6));
  }
}
