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
 * computed exactly, with BigInteger when it does not fit a long even after the weights are
 * divided by their gcd.
 */
final class ProportionalSplit {

  private ProportionalSplit() {}

  /**
   * @param amount non-negative amount to split
   * @param weights non-negative weights
   * @return parts by index, summing to {@code amount} unless every weight is zero (then all zero)
   */
  static long[] split(long amount, long[] weights) {
    long[] parts = new long[weights.length];
    long divisor = 0;
    for (long weight : weights) {
      divisor = gcd(divisor, weight);
    }
    if (amount <= 0 || divisor == 0) {
      return parts;
    }
    // Dividing all weights by their gcd changes no part and scales all remainders alike; weights
    // in bytes are mostly multiples of a power of two, so the products then fit a long.
    long[] reduced = new long[weights.length];
    for (int i = 0; i < weights.length; i++) {
      reduced[i] = weights[i] / divisor;
    }
    long totalWeight = sumHalvingToFit(reduced);
    long[] remainders = new long[weights.length];
    long handedOut = 0;
    for (int i = 0; i < weights.length; i++) {
      if (Math.multiplyHigh(amount, reduced[i]) == 0 && amount * reduced[i] >= 0) {
        long product = amount * reduced[i];
        parts[i] = product / totalWeight;
        remainders[i] = product % totalWeight;
      } else {
        BigInteger[] qr =
            BigInteger.valueOf(amount)
                .multiply(BigInteger.valueOf(reduced[i]))
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

  /**
   * Sums the weights, halving them all first until the sum fits a long. Only weights near the
   * long range (such as a max meant as "unlimited" used as the default weight) need it; shares
   * then move by less than one part in 2^60.
   */
  private static long sumHalvingToFit(long[] weights) {
    long sum = 0;
    for (long weight : weights) {
      if (weight > Long.MAX_VALUE - sum) {
        for (int i = 0; i < weights.length; i++) {
          weights[i] >>= 1;
        }
        return sumHalvingToFit(weights);
      }
      sum += weight;
    }
    return sum;
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }
}
