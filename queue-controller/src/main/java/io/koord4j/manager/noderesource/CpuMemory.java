package io.koord4j.manager.noderesource;

/** Milli-cores and bytes: the two resources batch resources are made of. */
public record CpuMemory(long cpuMilli, long memoryBytes) {
  public static final CpuMemory ZERO = new CpuMemory(0, 0);

  public CpuMemory plus(CpuMemory other) {
    return new CpuMemory(cpuMilli + other.cpuMilli, memoryBytes + other.memoryBytes);
  }

  public CpuMemory minus(CpuMemory other) {
    return new CpuMemory(cpuMilli - other.cpuMilli, memoryBytes - other.memoryBytes);
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
