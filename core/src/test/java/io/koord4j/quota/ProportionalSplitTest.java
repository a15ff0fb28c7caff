package io.koord4j.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ProportionalSplitTest {

  @Test
  void equalWeightsGiveTheLeftoverToTheLowestIndex() {
    assertThat(ProportionalSplit.split(10, new long[] {1, 1, 1})).containsExactly(4, 3, 3);
  }

  @Test
  void largestRemainderWinsOverIndex() {
    // 80 * 1/3 = 26 rem 2, 80 * 2/3 = 53 rem 1: the one unit lost goes to the first.
    assertThat(ProportionalSplit.split(80, new long[] {1, 2})).containsExactly(27, 53);
    // 10 * 1/6 = 1 rem 4, 10 * 2/6 = 3 rem 2, 10 * 3/6 = 5 rem 0.
    assertThat(ProportionalSplit.split(10, new long[] {1, 2, 3})).containsExactly(2, 3, 5);
  }

  @Test
  void zeroWeightsGetNothing() {
    assertThat(ProportionalSplit.split(7, new long[] {0, 1, 0, 1})).containsExactly(0, 4, 0, 3);
    assertThat(ProportionalSplit.split(7, new long[] {0, 0})).containsExactly(0, 0);
  }

  @Test
  void productsBeyondLongRangeStayExact() {
    long tebibyte = 1L << 40;
    long[] weights = {3 * tebibyte, 5 * tebibyte, 7 * tebibyte};
    // Remainders (in units of 1/15T) are 3T, 10T and 2T: the one unit left goes to the second.
    assertThat(ProportionalSplit.split(100 * tebibyte + 1, weights))
        .containsExactly(21_990_232_555_520L, 36_650_387_592_534L, 51_310_542_629_547L);
  }

  @Test
  void weightsNearTheLongRangeStillSplitExactly() {
    long[] weights = {Long.MAX_VALUE, Long.MAX_VALUE - 2, 7};
    assertThat(ProportionalSplit.split(1_000, weights)).containsExactly(500, 500, 0);
  }

  @Test
  void partsAlwaysSumExactlyAndStayWithinOneOfTheirShare() {
    Random random = new Random(42);
    for (int round = 0; round < 1_000; round++) {
      long[] weights = random.longs(1 + random.nextInt(8), 0, 1_000).toArray();
      long amount = random.nextLong(1_000_000);
      long[] parts = ProportionalSplit.split(amount, weights);
      long totalWeight = Arrays.stream(weights).sum();
      if (totalWeight == 0) {
        continue;
      }
      assertThat(Arrays.stream(parts).sum()).isEqualTo(amount);
      for (int i = 0; i < weights.length; i++) {
        double share = (double) amount * weights[i] / totalWeight;
        assertThat((double) parts[i]).isBetween(Math.floor(share), Math.floor(share) + 1);
      }
    }
  }
}
