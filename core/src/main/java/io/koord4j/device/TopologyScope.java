package io.koord4j.device;

import java.util.Arrays;
import java.util.stream.Collectors;

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

  static String jsonNames() {
    return Arrays.stream(values())
        .map(TopologyScope::jsonName)
        .collect(Collectors.joining(", "));
  }

  static TopologyScope fromJson(String value) {
    for (TopologyScope scope : values()) {
      if (scope.jsonName.equals(value)) {
        return scope;
      }
    }
    return null;
  }
}
