package io.koord4j.device;

/** The node label {@code node.koordinator.sh/gpu-partition-policy}. */
public enum PartitionPolicy {
  /** Whole-GPU pods must take exactly one partition of their size. */
  HONOR,
  /** Whole-GPU pods take a partition when one is free, else the tightest topology scope. */
  PREFER;

  /** Anything but {@code Honor} means Prefer, as in Koordinator. */
  public static PartitionPolicy fromLabel(String value) {
    return "Honor".equals(value) ? HONOR : PREFER;
  }
}
