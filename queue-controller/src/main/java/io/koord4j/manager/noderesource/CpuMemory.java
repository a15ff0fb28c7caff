package io.koord4j.manager.noderesource;

import io.koord4j.quantity.ResourceQuantities;

/** Milli-cores and bytes: the two resources batch resources are made of. */
public record CpuMemory(long cpuMilli, long memoryBytes) {
  public static final CpuMemory ZERO = new CpuMemory(0, 0);

  /** Held at the bounds of a long: a pod asking for more than a long must not wrap a sum round. */
  public CpuMemory plus(CpuMemory other) {
    return new CpuMemory(
        ResourceQuantities.saturatedSum(cpuMilli, other.cpuMilli),
        ResourceQuantities.saturatedSum(memoryBytes, other.memoryBytes));
  }

  /** Held at the bounds of a long, as {@link #plus}. */
  public CpuMemory minus(CpuMemory other) {
    return new CpuMemory(
        ResourceQuantities.saturatedDifference(cpuMilli, other.cpuMilli),
        ResourceQuantities.saturatedDifference(memoryBytes, other.memoryBytes));
  }

  public CpuMemory max(CpuMemory other) {
    return new CpuMemory(Math.max(cpuMilli, other.cpuMilli), Math.max(memoryBytes, other.memoryBytes));
  }

  public CpuMemory atLeastZero() {
    return max(ZERO);
  }

  /** {@code percent} of each, rounded down. */
  public CpuMemory percent(long cpuPercent, long memoryPercent) {
    return new CpuMemory(cpuMilli * cpuPercent / 100, memoryBytes * memoryPercent / 100);
  }
}
