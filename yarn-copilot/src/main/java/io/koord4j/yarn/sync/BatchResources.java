package io.koord4j.yarn.sync;

import io.koord4j.api.WellKnown;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Kubernetes batch resources: {@code kubernetes.io/batch-cpu} in millicores and {@code
 * kubernetes.io/batch-memory} in bytes.
 */
public record BatchResources(long milliCpu, long memoryBytes) {
  public static final BatchResources ZERO = new BatchResources(0, 0);

  /**
   * The batch resources among amounts in Kubernetes base units, rounded up to whole units; an
   * amount beyond a long counts as {@link Long#MAX_VALUE}.
   */
  public static BatchResources of(Map<String, BigDecimal> amounts) {
    return new BatchResources(units(amounts, WellKnown.BATCH_CPU), units(amounts, WellKnown.BATCH_MEMORY));
  }

  private static long units(Map<String, BigDecimal> amounts, String resource) {
    BigDecimal amount = amounts.get(resource);
    return amount == null ? 0 : ResourceQuantities.baseUnits(resource, amount);
  }

  /** Held at {@link Long#MAX_VALUE} rather than wrapping round to a negative sum. */
  public BatchResources plus(BatchResources other) {
    return new BatchResources(
        ResourceQuantities.saturatedSum(milliCpu, other.milliCpu),
        ResourceQuantities.saturatedSum(memoryBytes, other.memoryBytes));
  }

  /** Whether both are within {@code other}'s. */
  public boolean fitsIn(BatchResources other) {
    return milliCpu <= other.milliCpu && memoryBytes <= other.memoryBytes;
  }

  /** What is left after {@code other}, never below zero. */
  public BatchResources minus(BatchResources other) {
    return new BatchResources(
        Math.max(0, milliCpu - other.milliCpu), Math.max(0, memoryBytes - other.memoryBytes));
  }
}
