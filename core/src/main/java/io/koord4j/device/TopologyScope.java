package io.koord4j.device;

/**
 * {@code requiredTopologyScope} of {@code scheduling.koordinator.sh/device-allocate-hint}: all GPUs
 * of a pod must sit inside one such scope. Declared from the tightest to the widest.
 */
public enum TopologyScope {
  DEVICE("Device", "GPU"),
  PCIE("PCIe", "PCIe switch"),
  NUMA_NODE("NUMANode", "NUMA node"),
  NODE("Node", "node");

  private final String jsonName;
  private final String noun;

  TopologyScope(String jsonName, String noun) {
    this.jsonName = jsonName;
    this.noun = noun;
  }

  public String jsonName() {
    return jsonName;
  }

  /** How a reason names one scope of this kind: "no PCIe switch with ...". */
  String noun() {
    return noun;
  }

  boolean isAtLeastAsTightAs(TopologyScope other) {
    return ordinal() <= other.ordinal();
  }
}
