package io.koord4j.device;

import io.koord4j.quantity.ResourceQuantities;

/** CPU (milli-CPU), memory (bytes) and pod slots of a node: what it has, or what is left. */
public record NodeResources(long milliCpu, long memoryBytes, int pods) {

  /** Never wraps round: pods asking for more than a long leave a node full, not free. */
  public NodeResources minus(long milliCpu, long memoryBytes) {
    return new NodeResources(
        ResourceQuantities.saturatedDifference(this.milliCpu, milliCpu),
        ResourceQuantities.saturatedDifference(this.memoryBytes, memoryBytes),
        pods - 1);
  }

  /** Why one pod of this size does not fit, or null when it does. */
  String shortfall(long milliCpu, long memoryBytes) {
    if (pods < 1) {
      return "no pod slots left";
    }
    if (milliCpu > this.milliCpu) {
      return "cpu " + this.milliCpu + "m free, " + milliCpu + "m requested";
    }
    if (memoryBytes > this.memoryBytes) {
      return "memory " + ResourceQuantities.bytes(this.memoryBytes) + " free, "
          + ResourceQuantities.bytes(memoryBytes) + " requested";
    }
    return null;
  }
}
