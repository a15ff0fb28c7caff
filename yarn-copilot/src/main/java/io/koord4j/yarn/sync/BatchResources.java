package io.koord4j.yarn.sync;

/**
 * Kubernetes batch resources: {@code kubernetes.io/batch-cpu} in millicores and {@code
 * kubernetes.io/batch-memory} in bytes.
 */
public record BatchResources(long milliCpu, long memoryBytes) {
  public static final BatchResources ZERO = new BatchResources(0, 0);

  public BatchResources plus(BatchResources other) {
    return new BatchResources(milliCpu + other.milliCpu, memoryBytes + other.memoryBytes);
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
