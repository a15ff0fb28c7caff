package io.koord4j.device.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.device.GpuDevice;
import io.koord4j.device.GpuPartitionTable;
import io.koord4j.device.InvalidDeviceSpecException;
import io.koord4j.device.NodeGpuInventory;
import io.koord4j.device.PartitionPolicy;
import io.koord4j.quantity.ResourceQuantities;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** A node's GPUs, read from its Device object or, without one, from its allocatable. */
public final class NodeGpus {
  /**
   * Without a Device object a GPU's memory is unknown; this size is large enough that only the
   * count of whole GPUs limits.
   */
  private static final long UNKNOWN_GPU_MEMORY = 1L << 40;

  private NodeGpus() {}

  /**
   * @param device the node's Device object, null when it has none: then its {@code
   *     nvidia.com/gpu} allocatable counts as that many interchangeable GPUs
   */
  public static NodeGpuInventory inventory(Node node, Device device) {
    Map<String, String> labels =
        node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    if (device != null) {
      try {
        return NodeGpuInventory.fromDevice(device, labels);
      } catch (InvalidDeviceSpecException e) {
        // A broken Device object must not hide the node: fall back to its GPU count.
      }
    }
    String name = node.getMetadata().getName();
    int count = gpuCount(node);
    List<GpuDevice> devices =
        IntStream.range(0, count)
            .mapToObj(
                minor ->
                    new GpuDevice(minor, name + "-gpu-" + minor, true, UNKNOWN_GPU_MEMORY, null, -1, -1))
            .toList();
    String model = labels.get(WellKnown.GPU_MODEL);
    return new NodeGpuInventory(
        name,
        devices,
        GpuPartitionTable.builtIn(model, count),
        PartitionPolicy.fromLabel(labels.get(WellKnown.GPU_PARTITION_POLICY)),
        model);
  }

  private static int gpuCount(Node node) {
    Map<String, Quantity> allocatable =
        node.getStatus() == null ? null : node.getStatus().getAllocatable();
    Quantity gpus = allocatable == null ? null : allocatable.get(WellKnown.NVIDIA_GPU);
    return gpus == null
        ? 0
        : ResourceQuantities.amount(gpus, "status.allocatable[" + WellKnown.NVIDIA_GPU + "]").intValue();
  }
}
