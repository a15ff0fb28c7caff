package io.koord4j.device;

/** {@code allocatePolicy} of the pod annotation {@code scheduling.koordinator.sh/gpu-partition-spec}. */
public enum PartitionAllocatePolicy {
  /** Only a partition of the best allocation score will do. */
  RESTRICTED("Restricted"),
  /** Prefer partitions of higher score; fall back to any placement. The default. */
  BEST_EFFORT("BestEffort");

  private final String jsonName;

  PartitionAllocatePolicy(String jsonName) {
    this.jsonName = jsonName;
  }

  public String jsonName() {
    return jsonName;
  }
}
