package io.koord4j.quantity;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.jobs.PodRequests;
import io.koord4j.jobs.ResourceAmounts;
import io.koord4j.quota.BaseUnits;
import io.koord4j.quota.ResourceVector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kubernetes resource quantities as the quota core's whole base units (milli-CPU for {@code cpu},
 * bytes or counts for the rest) and back. Fractions below a base unit round up, so a request is
 * never charged less than it asks for.
 */
public final class ResourceQuantities {
  private ResourceQuantities() {}

  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";
  public static final String PODS = "pods";

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
    Map<String, BigDecimal> amounts = new TreeMap<>();
    if (quantities != null) {
      quantities.forEach(
          (resource, quantity) -> amounts.put(resource, ResourceAmounts.parse(quantity, resource)));
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

  /** One exact amount in Kubernetes base units (cores, bytes) as whole base units, rounded up. */
  public static long baseUnits(String resource, BigDecimal amount) {
    BigDecimal scaled = resource.equals(CPU) ? amount.movePointRight(3) : amount;
    return scaled.setScale(0, RoundingMode.CEILING).longValueExact();
  }

  public static Map<String, Quantity> toQuantities(ResourceVector vector) {
    Map<String, Quantity> quantities = new TreeMap<>();
    vector.asMap().forEach(
        (resource, amount) -> quantities.put(resource, toQuantity(resource, amount)));
    return quantities;
  }

  /** {@code 1500m} for CPU, the largest exact binary suffix for bytes, a plain count otherwise. */
  public static Quantity toQuantity(String resource, long amount) {
    return new Quantity(BaseUnits.format(resource, amount));
  }

  private static long signedBaseUnits(String resource, Quantity quantity, String fieldPath) {
    try {
      return baseUnits(resource, Quantity.getAmountInBytes(quantity));
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new IllegalArgumentException(
          fieldPath + "[" + resource + "]: \"" + quantity + "\" is not a valid quantity");
    }
  }
}
