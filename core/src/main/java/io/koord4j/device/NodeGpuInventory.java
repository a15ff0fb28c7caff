package io.koord4j.device;

import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.api.device.DeviceInfo;
import io.koord4j.api.device.DeviceTopology;
import io.koord4j.quantity.ResourceNames;
import io.koord4j.quantity.ResourceQuantities;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The GPUs of one node and how they may be grouped.
 *
 * @param devices ascending by minor
 * @param partitionTable {@link GpuPartitionTable#NONE} when the node has no NVLink partitions
 * @param model the value of {@code node.koordinator.sh/gpu-model}, may be null
 */
public record NodeGpuInventory(
    String nodeName,
    List<GpuDevice> devices,
    GpuPartitionTable partitionTable,
    PartitionPolicy partitionPolicy,
    String model) {

  public NodeGpuInventory {
    Objects.requireNonNull(nodeName, "nodeName");
    devices = devices.stream().sorted(Comparator.comparingInt(GpuDevice::minor)).toList();
    Objects.requireNonNull(partitionTable, "partitionTable");
    Objects.requireNonNull(partitionPolicy, "partitionPolicy");
  }

  /**
   * The GPUs of a Device object; the partition table comes from its {@code gpu-partitions}
   * annotation, else from the built-in table of the node's GPU model.
   */
  public static NodeGpuInventory fromDevice(Device device, Map<String, String> nodeLabels) {
    String nodeName = device.getMetadata().getName();
    List<DeviceInfo> infos =
        device.getSpec() == null || device.getSpec().getDevices() == null
            ? List.of()
            : device.getSpec().getDevices();
    List<GpuDevice> gpus =
        infos.stream()
            .filter(info -> DeviceInfo.TYPE_GPU.equals(info.getType()))
            .map(info -> gpu(nodeName, info))
            .toList();
    String model = nodeLabels.get(WellKnown.GPU_MODEL);
    String annotation =
        device.getMetadata().getAnnotations() == null
            ? null
            : device.getMetadata().getAnnotations().get(WellKnown.GPU_PARTITIONS);
    GpuPartitionTable table =
        annotation == null || annotation.isBlank()
            ? GpuPartitionTable.builtIn(model, gpus.size())
            : GpuPartitionTable.parse("Device " + nodeName, annotation);
    PartitionPolicy policy = PartitionPolicy.fromLabel(nodeLabels.get(WellKnown.GPU_PARTITION_POLICY));
    return new NodeGpuInventory(nodeName, gpus, table, policy, model);
  }

  private static GpuDevice gpu(String nodeName, DeviceInfo info) {
    String where = "Device " + nodeName + ": GPU " + info.getId();
    if (info.getMinor() == null) {
      throw new InvalidDeviceSpecException(where + " has no minor");
    }
    Map<String, Quantity> resources = ResourceNames.current(info.getResources());
    Quantity memory = resources == null ? null : resources.get(WellKnown.GPU_MEMORY);
    if (memory == null) {
      throw new InvalidDeviceSpecException(where + " has no " + WellKnown.GPU_MEMORY);
    }
    DeviceTopology topology = info.getTopology() == null ? new DeviceTopology() : info.getTopology();
    return new GpuDevice(
        info.getMinor(),
        info.getId(),
        Boolean.TRUE.equals(info.getHealth()),
        ResourceQuantities.wholeNumber(
            where + " " + WellKnown.GPU_MEMORY, memory.toString(), InvalidDeviceSpecException::new),
        topology.getPcieID(),
        topology.getNodeID() == null ? -1 : topology.getNodeID(),
        topology.getSocketID() == null ? -1 : topology.getSocketID());
  }

  public Optional<GpuDevice> device(int minor) {
    return devices.stream().filter(device -> device.minor() == minor).findFirst();
  }

  public List<GpuDevice> healthyDevices() {
    return devices.stream().filter(GpuDevice::healthy).toList();
  }
}
