package io.koord4j.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceVectorTest {

  private final ResourceVector a = ResourceVector.of("cpu", 4000, "memory", 1024);
  private final ResourceVector b = ResourceVector.of("cpu", 1000, "nvidia.com/gpu", 2);

  @Test
  void arithmeticRunsOverTheUnionOfNamesWithAbsentAsZero() {
    assertThat(a.add(b).asMap())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("cpu", 5000L, "memory", 1024L, "nvidia.com/gpu", 2L));
    assertThat(a.subtract(b).asMap())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("cpu", 3000L, "memory", 1024L, "nvidia.com/gpu", -2L));
    assertThat(a.min(b).asMap())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("cpu", 1000L, "memory", 0L, "nvidia.com/gpu", 0L));
    assertThat(a.max(b).asMap())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("cpu", 4000L, "memory", 1024L, "nvidia.com/gpu", 2L));
  }

  @Test
  void aShareIsRoundedUpAndMustLieBetweenNoneAndAll() {
    ResourceVector request = ResourceVector.of("cpu", 1000, "memory", 3);

    assertThat(request.share(2, 3).asMap()).containsExactlyInAnyOrderEntriesOf(Map.of("cpu", 667L, "memory", 2L));
    assertThat(request.share(0, 3).isZero()).isTrue();
    assertThat(request.share(3, 3)).isEqualTo(request);
    assertThatThrownBy(() -> request.share(4, 3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a share must lie between 0 and 1, not 4/3");
  }

  @Test
  void perResourceAccess() {
    assertThat(a.get("cpu")).isEqualTo(4000);
    assertThat(a.get("nvidia.com/gpu")).isZero();
    assertThat(a.has("memory")).isTrue();
    assertThat(a.has("nvidia.com/gpu")).isFalse();
    assertThat(a.resourceNames()).containsExactly("cpu", "memory");
  }

  @Test
  void fitsInComparesEveryResourceOfTheSmallerSide() {
    assertThat(ResourceVector.of("cpu", 1000).fitsIn(a)).isTrue();
    assertThat(ResourceVector.of("cpu", 4001).fitsIn(a)).isFalse();
    assertThat(b.fitsIn(a)).as("gpu absent from the limit counts as zero").isFalse();
    assertThat(ResourceVector.of("nvidia.com/gpu", 0).fitsIn(a)).isTrue();
  }

  @Test
  void zerosAreKeptAsNamesButCountAsZero() {
    ResourceVector zeroCpu = ResourceVector.of("cpu", 0);
    assertThat(zeroCpu.isZero()).isTrue();
    assertThat(zeroCpu.has("cpu")).isTrue();
    assertThat(zeroCpu).isNotEqualTo(ResourceVector.EMPTY);
    assertThat(a.subtract(a).isZero()).isTrue();
  }

  @Test
  void equalityIgnoresConstructionOrder() {
    assertThat(ResourceVector.of("memory", 1024, "cpu", 4000)).isEqualTo(a).hasSameHashCodeAs(a);
  }
}
