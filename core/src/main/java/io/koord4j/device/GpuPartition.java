package io.koord4j.device;

import java.util.List;

/**
 * GPUs that are linked together (NVLink) and are handed out as one unit.
 *
 * @param minors ascending
 * @param ringBusBandwidth bytes per second, 0 when not given
 * @param allocationScore higher is better; Restricted pods only take partitions of the best score
 */
public record GpuPartition(
    List<Integer> minors, String linkType, long ringBusBandwidth, int allocationScore) {

  public static final String NVLINK = "NVLink";

  public GpuPartition {
    minors = minors.stream().sorted().toList();
  }

  public static GpuPartition nvlink(Integer... minors) {
    return new GpuPartition(List.of(minors), NVLINK, 0, 1);
  }

  public int size() {
    return minors.size();
  }

  public int firstMinor() {
    return minors.get(0);
  }
}
