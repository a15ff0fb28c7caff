package io.koord4j.koordlet.device;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.api.device.DeviceInfo;
import io.koord4j.api.device.DeviceSpec;
import io.koord4j.api.device.DeviceTopology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the node's Device object from its GPUs, in the shape koord-scheduler reads: one {@code
 * gpu} entry per GPU with core, memory and memory-ratio resources and its NUMA node and PCIe switch,
 * and the NVLink partitions in the {@code gpu-partitions} annotation; no I/O.
 */
public final class DeviceObjects {
  private DeviceObjects() {}

  public static Device build(String nodeName, List<GpuInfo> gpus, GpuInventory inventory) {
    Device device = new Device();
    device.getMetadata().setName(nodeName);
    List<Integer> minors = gpus.stream().map(GpuInfo::minor).toList();
    String partitions = partitions(minors, inventory);
    if (partitions != null) {
      device.getMetadata().setAnnotations(Map.of(WellKnown.GPU_PARTITIONS, partitions));
    }
    DeviceSpec spec = new DeviceSpec();
    spec.setDevices(gpus.stream().map(DeviceObjects::info).toList());
    device.setSpec(spec);
    return device;
  }

  /** {@code NVIDIA H100 80GB HBM3} → {@code H100}, the form node labels and built-in tables use. */
  public static String model(String productName) {
    String name = productName.startsWith("NVIDIA ") ? productName.substring("NVIDIA ".length()) : productName;
    return name.split("[\\s-]")[0];
  }

  private static DeviceInfo info(GpuInfo gpu) {
    DeviceInfo info = new DeviceInfo();
    info.setType(DeviceInfo.TYPE_GPU);
    info.setId(gpu.uuid());
    info.setMinor(gpu.minor());
    info.setHealth(gpu.healthy());
    Map<String, Quantity> resources = new LinkedHashMap<>();
    resources.put(WellKnown.GPU_CORE, new Quantity("100"));
    resources.put(WellKnown.GPU_MEMORY, new Quantity(Long.toString(gpu.memoryBytes())));
    resources.put(WellKnown.GPU_MEMORY_RATIO, new Quantity("100"));
    info.setResources(resources);
    DeviceTopology topology = new DeviceTopology();
    topology.setNodeID(gpu.numaNode() < 0 ? null : gpu.numaNode());
    topology.setPcieID(gpu.pcieSwitch() == null ? gpu.busId() : gpu.pcieSwitch());
    topology.setBusID(gpu.busId());
    info.setTopology(topology);
    return info;
  }

  /**
   * All GPUs of an NVSwitch board in halves, quarters and pairs by minor order (with a
   * power-of-two count); otherwise the NVLink pairs; singles always. Null without NVLink.
   */
  static String partitions(List<Integer> minors, GpuInventory inventory) {
    Map<Integer, List<Map<String, Object>>> bySize = new TreeMap<>();
    if (inventory.allNvlinked() && Integer.bitCount(minors.size()) == 1) {
      for (int size = minors.size(); size >= 2; size /= 2) {
        for (int start = 0; start < minors.size(); start += size) {
          bySize.computeIfAbsent(size, s -> new ArrayList<>()).add(partition(minors.subList(start, start + size)));
        }
      }
    } else {
      for (int[] pair : inventory.nvlinkPairs()) {
        bySize.computeIfAbsent(2, s -> new ArrayList<>()).add(partition(List.of(minors.get(pair[0]), minors.get(pair[1]))));
      }
    }
    if (bySize.isEmpty()) {
      return null;
    }
    for (int minor : minors) {
      bySize.computeIfAbsent(1, s -> new ArrayList<>()).add(partition(List.of(minor)));
    }
    Map<String, Object> json = new LinkedHashMap<>();
    bySize.forEach((size, list) -> json.put(Integer.toString(size), list));
    try {
      return Serialization.jsonMapper().writeValueAsString(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, Object> partition(List<Integer> minors) {
    Map<String, Object> partition = new LinkedHashMap<>();
    partition.put("minors", minors);
    partition.put("gpuLinkType", "NVLink");
    partition.put("allocationScore", 1);
    return partition;
  }
}
