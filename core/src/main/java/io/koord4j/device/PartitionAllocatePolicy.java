package io.koord4j.device;

import java.util.Arrays;
import java.util.stream.Collectors;

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

  static String jsonNames() {
    return Arrays.stream(values())
        .map(PartitionAllocatePolicy::jsonName)
        .collect(Collectors.joining(", "));
  }

  static PartitionAllocatePolicy fromJson(String value) {
    for (PartitionAllocatePolicy policy : values()) {
      if (policy.jsonName.equals(value)) {
        return policy;
      }
    }
    return null;
  }
}
