package io.koord4j.koordlet.metrics;

import java.util.List;

/** CPU in cores and memory in bytes. */
public record Usage(double cpuCores, double memoryBytes) {

  /**
   * What this usage of a node leaves after its pods' usage, at least zero in each resource: the
   * usage of the system outside the pods (node and pod samples differ slightly, so the difference
   * can dip below zero).
   */
  public Usage outside(List<Usage> pods) {
    double podsCpu = 0;
    double podsMemory = 0;
    for (Usage pod : pods) {
      podsCpu += pod.cpuCores;
      podsMemory += pod.memoryBytes;
    }
    return new Usage(Math.max(0, cpuCores - podsCpu), Math.max(0, memoryBytes - podsMemory));
  }
}
