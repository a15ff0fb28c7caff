package io.koord4j.quota;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Splits an integer amount in proportion to weights so that the parts sum to the amount exactly
 * (largest-remainder, or Hamilton, method).
 *
 * <p>Each part first gets {@code floor(amount * w / W)}; the units lost to flooring (fewer than
 * the number of positive weights) then go one each to the largest remainders {@code amount * w mod
 * W}, ties going to the lower index. Callers order entries by quota name, so ties go to the
 * alphabetically first quota. A zero weight gets nothing. The product {@code amount * w} is
 * computed exactly, falling back to 128-bit arithmetic when it does not fit a long (memory in
 * bytes times a memory-sized weight easily does not).
 */
final class ProportionalSplit {

  private ProportionalSplit() {}

  /**
   * @param amount non-negative amount to split
   * @param weights non-negative weights; their sum must fit a long
   * @return parts by index, summing to {@code amount} unless every weight is zero (then all zero)
   */
  static long[] split(long amount, long[] weights) {
    long[] parts = new long[weights.length];
    long totalWeight = 0;
    for (long weight : weights) {
      totalWeight = Math.addExact(totalWeight, weight);
    }
    if (amount <= 0 || totalWeight == 0) {
      return parts;
    }
    long[] remainders = new long[weights.length];
    long handedOut = 0;
    for (int i = 0; i < weights.length; i++) {
      if (Math.multiplyHigh(amount, weights[i]) == 0 && amount * weights[i] >= 0) {
        long product = amount * weights[i];
        parts[i] = product / totalWeight;
        remainders[i] = product % totalWeight;
      } else {
        BigInteger[] qr =
            BigInteger.valueOf(amount)
                .multiply(BigInteger.valueOf(weights[i]))
                .divideAndRemainder(BigInteger.valueOf(totalWeight));
        parts[i] = qr[0].longValueExact();
        remainders[i] = qr[1].longValueExact();
      }
      handedOut += parts[i];
    }
    long leftover = amount - handedOut;
    if (leftover > 0) {
      Integer[] byRemainder = new Integer[weights.length];
      Arrays.setAll(byRemainder, i -> i);
      // Stable sort by descending remainder keeps lower indexes first among equals.
      Arrays.sort(byRemainder, Comparator.comparingLong(i -> -remainders[i]));
      for (int k = 0; leftover > 0; k++, leftover--) {
        parts[byRemainder[k]]++;
      }
    }
    return parts;
  }
}
