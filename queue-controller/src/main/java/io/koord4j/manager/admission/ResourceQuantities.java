package io.koord4j.manager.admission;

import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.jobs.ResourceAmounts;
import io.koord4j.quota.ResourceVector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.TreeMap;

/**
 * Converts Kubernetes resource lists to the quota core's whole base units (milli-CPU for {@code
 * cpu}, bytes, counts) and back. Fractions below a base unit round up, so a request is never
 * charged less than it asks for.
 */
public final class ResourceQuantities {
  private ResourceQuantities() {}

  private static final String CPU = "cpu";
  private static final String[] BINARY_SUFFIXES = {"Ki", "Mi", "Gi", "Ti", "Pi"};

  public static ResourceVector toVector(Map<String, Quantity> quantities) {
    Map<String, BigDecimal> amounts = new TreeMap<>();
    if (quantities != null) {
      quantities.forEach(
          (resource, quantity) -> amounts.put(resource, ResourceAmounts.parse(quantity, resource)));
    }
    return fromAmounts(amounts);
  }

  /** Exact amounts in Kubernetes base units (cores, bytes) as the core's whole base units. */
  public static ResourceVector fromAmounts(Map<String, BigDecimal> amounts) {
    Map<String, Long> units = new TreeMap<>();
    amounts.forEach(
        (resource, amount) -> {
          BigDecimal base = resource.equals(CPU) ? amount.movePointRight(3) : amount;
          units.put(resource, base.setScale(0, RoundingMode.CEILING).longValueExact());
        });
    return ResourceVector.of(units);
  }

  public static Map<String, Quantity> toQuantities(ResourceVector vector) {
    Map<String, Quantity> quantities = new TreeMap<>();
    vector.asMap().forEach((resource, amount) -> quantities.put(resource, quantity(resource, amount)));
    return quantities;
  }

  /** {@code 1500m} for CPU, the largest exact binary suffix for bytes, a plain count otherwise. */
  static Quantity quantity(String resource, long amount) {
    if (resource.equals(CPU)) {
      return ResourceAmounts.toQuantity(BigDecimal.valueOf(amount, 3));
    }
    if (resource.contains("memory") || resource.contains("storage")) {
      String suffix = "";
      for (int i = 0; i < BINARY_SUFFIXES.length && amount != 0 && amount % 1024 == 0; i++) {
        amount /= 1024;
        suffix = BINARY_SUFFIXES[i];
      }
      return new Quantity(Long.toString(amount), suffix);
    }
    return new Quantity(Long.toString(amount));
  }
}
