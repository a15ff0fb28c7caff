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

  /** Kubernetes batch resources in YARN's units: vcores = ceil(milli / 1000), MiB rounded up. */
  public static YarnResources of(BatchResources batch) {
    return new YarnResources(
        Math.floorDiv(batch.milliCpu() + 999, 1000), Math.floorDiv(batch.memoryBytes() + MIB - 1, MIB));
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
