package io.koord4j.koordlet.metrics;

/** CPU in cores and memory in bytes. */
public record Usage(double cpuCores, double memoryBytes) {
  public static final Usage ZERO = new Usage(0, 0);

  public Usage plus(Usage other) {
    return new Usage(cpuCores + other.cpuCores, memoryBytes + other.memoryBytes);
  }

  public Usage minus(Usage other) {
    return new Usage(cpuCores - other.cpuCores, memoryBytes - other.memoryBytes);
  }

  public Usage atLeastZero() {
    return new Usage(Math.max(0, cpuCores), Math.max(0, memoryBytes));
  }
}
