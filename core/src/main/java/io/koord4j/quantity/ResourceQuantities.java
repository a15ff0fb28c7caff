package io.koord4j.quantity;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.jobs.PodRequests;
import io.koord4j.quota.ResourceVector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * The one codec between Kubernetes resource quantities and the numbers koord4j computes with.
 *
 * <p>Two representations: exact amounts as {@link BigDecimal} in Kubernetes base units (cores,
 * bytes, devices), so that the sums and maxima of a job's pod sets never round; and the quota
 * core's whole base units ({@link ResourceVector}: milli-CPU for {@code cpu}, bytes or counts for
 * the rest), where fractions below a base unit round up, so a request is never charged less than
 * it asks for. Resource maps are keyed by resource name and kept sorted so that equal maps print
 * the same.
 */
public final class ResourceQuantities {
  private ResourceQuantities() {}

  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";
  public static final String PODS = "pods";

  private static final String[] BINARY_SUFFIXES = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

  // ---- exact amounts ----

  /**
   * The amount of a requested quantity in base units.
   *
   * @param fieldPath where the quantity was read, named in the error message
   * @throws IllegalArgumentException if the quantity is malformed, beyond the bounds of {@link
   *     #amount} or negative
   */
  public static BigDecimal parse(Quantity quantity, String fieldPath) {
    BigDecimal amount = amount(quantity, fieldPath);
    if (amount.signum() < 0) {
      throw new IllegalArgumentException(fieldPath + ": \"" + quantity + "\" must not be negative");
    }
    return amount;
  }

  /**
   * The amount of a quantity in base units, negative amounts included. Quantities are read within
   * bounds on their length, digits and exponent that keep every read small and quick and lie far
   * beyond what a cluster holds ({@code QuantityReader} gives them).
   *
   * @param fieldPath where the quantity was read, named in the error message
   * @throws IllegalArgumentException naming the field, the value and the rule it breaks, if the
   *     quantity is malformed or beyond the bounds
   */
  public static BigDecimal amount(Quantity quantity, String fieldPath) {
    return amount(quantity == null ? null : quantity.toString(), fieldPath);
  }

  /** A quantity written as text, e.g. in an annotation, as {@link #amount(Quantity, String)}. */
  public static BigDecimal amount(String text, String fieldPath) {
    return normalize(QuantityReader.read(text == null ? "" : text, fieldPath));
  }

  /**
   * The value of {@code text} as a whole non-negative number, e.g. a GPU count or a size in bytes.
   *
   * @param what names the value in the error, e.g. {@code resource koordinator.sh/gpu}
   * @param invalid makes the exception thrown, from its message
   */
  public static long wholeNumber(
      String what, String text, Function<String, ? extends RuntimeException> invalid) {
    BigDecimal value;
    try {
      value = amount(text, what);
    } catch (IllegalArgumentException e) {
      throw invalid.apply(e.getMessage());
    }
    if (value.signum() < 0 || value.scale() > 0 || value.compareTo(LONG_MAX) > 0) {
      throw invalid.apply(
          what + ": \"" + text + "\" must be a whole number from 0 to " + Long.MAX_VALUE);
    }
    return value.longValueExact();
  }

  /**
   * The shortest exact quantity for an amount: a plain number when it is whole, else the largest
   * of the milli, micro or nano suffixes that keeps it whole, else a plain decimal. An amount too
   * long to be read back (only sums of amounts no cluster holds get there) is written within the
   * bounds of {@link #amount}, rounded up, so that what koord4j writes it can always read.
   */
  public static Quantity toQuantity(BigDecimal amount) {
    BigDecimal normalized = normalize(amount);
    String exact = exactText(normalized);
    return new Quantity(
        QuantityReader.fits(exact) ? exact : QuantityReader.boundedText(normalized));
  }

  private static String exactText(BigDecimal normalized) {
    if (normalized.scale() == 0) {
      return normalized.toPlainString();
    }
    String[] suffixes = {"m", "u", "n"};
    for (int i = 0; i < suffixes.length; i++) {
      int digits = 3 * (i + 1);
      if (normalized.scale() <= digits) {
        return normalized.movePointRight(digits).toPlainString() + suffixes[i];
      }
    }
    return normalized.toPlainString();
  }

  /** Every amount of a resource map rendered with {@link #toQuantity(BigDecimal)}. */
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

  // ---- whole base units ----

  /** The effective request of a pod (init containers, sidecars and overhead included). */
  public static ResourceVector requestOf(Pod pod) {
    return fromAmounts(PodRequests.of(pod.getSpec(), "spec"));
  }

  /**
   * A resource list of requests or capacities, which are never negative.
   *
   * @throws IllegalArgumentException naming the resource when a quantity is malformed or negative
   */
  public static ResourceVector toVector(Map<String, Quantity> quantities) {
    return toVector(quantities, "");
  }

  /**
   * A resource list of requests or capacities, which are never negative.
   *
   * @param fieldPath where the list lies in its object, e.g. {@code spec.max}
   * @throws IllegalArgumentException naming {@code fieldPath[resource]} when a quantity is
   *     malformed or negative
   */
  public static ResourceVector toVector(Map<String, Quantity> quantities, String fieldPath) {
    Map<String, BigDecimal> amounts = new TreeMap<>();
    if (quantities != null) {
      quantities.forEach(
          (resource, quantity) ->
              amounts.put(resource, parse(quantity, entryPath(fieldPath, resource))));
    }
    return fromAmounts(amounts);
  }

  /**
   * A resource list as written, negative amounts included, so that a validator can report them
   * with the rest of what is wrong instead of stopping at the first.
   *
   * @param fieldPath where the list lies in its object, e.g. {@code spec.min}
   * @throws IllegalArgumentException naming {@code fieldPath[resource]} when a quantity cannot be
   *     read
   */
  public static ResourceVector toSignedVector(Map<String, Quantity> quantities, String fieldPath) {
    Map<String, Long> units = new TreeMap<>();
    if (quantities != null) {
      quantities.forEach(
          (resource, quantity) ->
              units.put(resource, signedBaseUnits(resource, quantity, fieldPath)));
    }
    return ResourceVector.of(units);
  }

  /** Exact amounts in Kubernetes base units (cores, bytes) as the core's whole base units. */
  public static ResourceVector fromAmounts(Map<String, BigDecimal> amounts) {
    Map<String, Long> units = new TreeMap<>();
    amounts.forEach((resource, amount) -> units.put(resource, baseUnits(resource, amount)));
    return ResourceVector.of(units);
  }

  /**
   * One exact amount in Kubernetes base units (cores, bytes) as whole base units, rounded up.
   * Amounts beyond a long, such as the CPU max Koordinator gives its default quota, are as good
   * as unlimited and count as {@link Long#MAX_VALUE} (or its negative).
   */
  public static long baseUnits(String resource, BigDecimal amount) {
    BigDecimal scaled = resource.equals(CPU) ? amount.movePointRight(3) : amount;
    BigDecimal whole = scaled.setScale(0, RoundingMode.CEILING);
    if (whole.compareTo(LONG_MAX) > 0) {
      return Long.MAX_VALUE;
    }
    return whole.compareTo(LONG_MIN) < 0 ? Long.MIN_VALUE : whole.longValueExact();
  }

  /**
   * {@code a + b} in whole base units, held at {@link Long#MAX_VALUE} (or {@link Long#MIN_VALUE})
   * instead of wrapping round: as in {@link #baseUnits}, an amount beyond a long is as good as
   * unlimited, so pods asking for such amounts must not sum to a negative one.
   */
  public static long saturatedSum(long a, long b) {
    try {
      return Math.addExact(a, b);
    } catch (ArithmeticException overflow) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /** {@code a - b} in whole base units, held at the bounds of a long as in {@link #saturatedSum}. */
  public static long saturatedDifference(long a, long b) {
    try {
      return Math.subtractExact(a, b);
    } catch (ArithmeticException overflow) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);

  public static Map<String, Quantity> toQuantities(ResourceVector vector) {
    Map<String, Quantity> quantities = new TreeMap<>();
    vector.asMap().forEach(
        (resource, amount) -> quantities.put(resource, toQuantity(resource, amount)));
    return quantities;
  }

  /** {@code 1500m} for CPU, the largest exact binary suffix for bytes, a plain count otherwise. */
  public static Quantity toQuantity(String resource, long amount) {
    return new Quantity(format(resource, amount));
  }

  /** E.g. 1500 milli-CPU as {@code 1500m}, 2000 as {@code 2}; 16 GiB of memory as {@code 16Gi}. */
  public static String format(String resource, long amount) {
    if (resource.equals(CPU)) {
      return amount % 1000 == 0 ? Long.toString(amount / 1000) : amount + "m";
    }
    if (resource.contains(MEMORY) || resource.contains("storage")) {
      return bytes(amount);
    }
    return Long.toString(amount);
  }

  /** Bytes in the largest binary unit that divides them exactly: 85899345920 is "80Gi". */
  public static String bytes(long amount) {
    if (amount == 0) {
      return "0";
    }
    String suffix = "";
    for (String next : BINARY_SUFFIXES) {
      if (amount % 1024 != 0) {
        break;
      }
      amount /= 1024;
      suffix = next;
    }
    return amount + suffix;
  }

  private static long signedBaseUnits(String resource, Quantity quantity, String fieldPath) {
    return baseUnits(resource, amount(quantity, entryPath(fieldPath, resource)));
  }

  /** {@code spec.min[cpu]}; the bare resource name when the list's own path is not known. */
  private static String entryPath(String fieldPath, String resource) {
    return fieldPath.isEmpty() ? resource : fieldPath + "[" + resource + "]";
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
