package io.koord4j.yarn.sync;

/**
 * Resources in YARN's units: whole virtual cores and MiB of memory.
 *
 * @param vcores virtual cores
 * @param memoryMib memory in MiB (YARN's "MB" is 2^20 bytes)
 */
public record YarnResources(long vcores, long memoryMib) {
  public static final YarnResources ZERO = new YarnResources(0, 0);

  static final long MIB = 1L << 20;

  /**
   * Kubernetes batch resources in YARN's units, rounded down: vcores = floor(milli / 1000), whole
   * MiB. Rounding up would let YARN hold a part that Kubernetes still offers.
   */
  public static YarnResources of(BatchResources batch) {
    return new YarnResources(Math.floorDiv(batch.milliCpu(), 1000), Math.floorDiv(batch.memoryBytes(), MIB));
  }

  /** The smaller of each. */
  public YarnResources min(YarnResources other) {
    return new YarnResources(Math.min(vcores, other.vcores), Math.min(memoryMib, other.memoryMib));
  }

  /** The larger of each. */
  public YarnResources max(YarnResources other) {
    return new YarnResources(Math.max(vcores, other.vcores), Math.max(memoryMib, other.memoryMib));
  }

  /** What is left after {@code other}, never below zero. */
  public YarnResources minus(YarnResources other) {
    return new YarnResources(Math.max(0, vcores - other.vcores), Math.max(0, memoryMib - other.memoryMib));
  }

  /** Whether either is below {@code other}'s. */
  public boolean anyBelow(YarnResources other) {
    return vcores < other.vcores || memoryMib < other.memoryMib;
  }

  /** Back in Kubernetes batch units, exactly. */
  public BatchResources toBatch() {
    return new BatchResources(vcores * 1000, memoryMib * MIB);
  }

  @Override
  public String toString() {
    return vcores + " vcores, " + memoryMib + " MiB";
  }
}
