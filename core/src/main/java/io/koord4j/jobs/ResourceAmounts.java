package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BinaryOperator;
import java.util.regex.Pattern;

/**
 * Exact resource amounts. A quantity becomes a {@link BigDecimal} in base units (cores, bytes,
 * devices) so that sums and comparisons never round; {@link #toQuantity} renders it back.
 *
 * <p>Resource maps are keyed by resource name and kept sorted so that equal maps print the same.
 */
public final class ResourceAmounts {
  private ResourceAmounts() {}

  /**
   * Kubernetes' quantity grammar: a signed decimal number followed by a binary suffix, a decimal
   * SI suffix or a decimal exponent. Checked here because fabric8 accepts some strings the API
   * server rejects.
   */
  private static final Pattern QUANTITY =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\\d+)?");

  /**
   * The amount of a requested quantity in base units.
   *
   * @param fieldPath where the quantity was read, named in the error message
   * @throws IllegalArgumentException if the quantity is malformed or negative
   */
  public static BigDecimal parse(Quantity quantity, String fieldPath) {
    String text = quantity == null ? "" : quantity.toString();
    if (!QUANTITY.matcher(text).matches()) {
      throw new IllegalArgumentException(
          fieldPath + ": \"" + text + "\" is not a valid quantity");
    }
    BigDecimal amount = normalize(Quantity.getAmountInBytes(quantity));
    if (amount.signum() < 0) {
      throw new IllegalArgumentException(fieldPath + ": \"" + text + "\" must not be negative");
    }
    return amount;
  }

  /**
   * The shortest exact quantity for an amount: a plain number when it is whole, else the largest
   * of the milli, micro or nano suffixes that keeps it whole, else a plain decimal.
   */
  public static Quantity toQuantity(BigDecimal amount) {
    BigDecimal normalized = normalize(amount);
    if (normalized.scale() == 0) {
      return new Quantity(normalized.toPlainString());
    }
    String[] suffixes = {"m", "u", "n"};
    for (int i = 0; i < suffixes.length; i++) {
      int digits = 3 * (i + 1);
      if (normalized.scale() <= digits) {
        return new Quantity(normalized.movePointRight(digits).toPlainString(), suffixes[i]);
      }
    }
    return new Quantity(normalized.toPlainString());
  }

  /** Every amount of a resource map rendered with {@link #toQuantity}. */
  public static Map<String, Quantity> toQuantities(Map<String, BigDecimal> amounts) {
    Map<String, Quantity> quantities = new TreeMap<>();
    amounts.forEach((resource, amount) -> quantities.put(resource, toQuantity(amount)));
    return Collections.unmodifiableMap(quantities);
  }

  /** Resource-wise sum; a resource missing on one side counts as zero. */
  public static Map<String, BigDecimal> sum(Map<String, BigDecimal> a, Map<String, BigDecimal> b) {
    return merge(a, b, BigDecimal::add);
  }

  /** Resource-wise maximum; a resource missing on one side counts as zero. */
  public static Map<String, BigDecimal> max(Map<String, BigDecimal> a, Map<String, BigDecimal> b) {
    return merge(a, b, BigDecimal::max);
  }

  /** Every amount multiplied by {@code factor}, e.g. one pod's request times the pod count. */
  public static Map<String, BigDecimal> times(Map<String, BigDecimal> amounts, int factor) {
    Map<String, BigDecimal> result = new TreeMap<>();
    BigDecimal multiplier = BigDecimal.valueOf(factor);
    amounts.forEach(
        (resource, amount) -> result.put(resource, normalize(amount.multiply(multiplier))));
    return Collections.unmodifiableMap(result);
  }

  private static Map<String, BigDecimal> merge(
      Map<String, BigDecimal> a, Map<String, BigDecimal> b, BinaryOperator<BigDecimal> combine) {
    Map<String, BigDecimal> result = new TreeMap<>(a);
    b.forEach((resource, amount) -> result.merge(resource, amount, combine));
    result.replaceAll((resource, amount) -> normalize(amount));
    return Collections.unmodifiableMap(result);
  }

  /** One representation per value (no trailing zeros, no negative scale): equal maps are equal. */
  private static BigDecimal normalize(BigDecimal amount) {
    BigDecimal stripped = amount.stripTrailingZeros();
    return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
  }
}
