package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.device.ClusterNode;
import io.koord4j.device.DeviceAllocatedCodec;
import io.koord4j.device.GpuAllocation;
import io.koord4j.device.GpuAllocator;
import io.koord4j.device.InvalidDeviceSpecException;
import io.koord4j.device.NodeGpuInventory;
import io.koord4j.device.NodeGpuUsage;
import io.koord4j.device.NodeResources;
import io.koord4j.device.kube.NodeGpus;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One node with what its bound pods hold, for gang placement. */
final class NodeModel {
  private NodeModel() {}

  /**
   * @param device the node's Device object, null when it has none: then its {@code
   *     nvidia.com/gpu} allocatable counts as that many interchangeable GPUs
   * @param pods the pods bound to the node and not finished
   */
  static ClusterNode of(Node node, Device device, List<Pod> pods) {
    NodeGpuInventory gpus = NodeGpus.inventory(node, device);
    NodeResources allocatable = allocatable(node);
    NodeResources free = allocatable;
    NodeGpuUsage usage = NodeGpuUsage.NONE;
    for (Pod pod : pods) {
      Optional<PodDemand> demand = demandOf(pod);
      if (demand.isEmpty()) {
        continue;
      }
      free = free.minus(demand.get().milliCpu(), demand.get().memoryBytes());
      GpuAllocation held = heldGpus(pod, demand.get(), gpus, usage);
      if (held != null) {
        usage = usage.reserve(held);
      }
    }
    return new ClusterNode(gpus, usage, allocatable, free);
  }

  /**
   * Empty for a pod whose requests the codec cannot read: the API server accepts quantities such as
   * {@code 1e500000001}, and one tenant's pod must not fail the snapshot of every node. A pod
   * asking that much is refused by its kubelet anyway.
   */
  private static Optional<PodDemand> demandOf(Pod pod) {
    try {
      return Optional.of(PodDemand.ofBound(pod));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static NodeResources allocatable(Node node) {
    return new NodeResources(
        baseUnits(node, ResourceQuantities.CPU),
        baseUnits(node, ResourceQuantities.MEMORY),
        amount(node, "pods", Integer.MAX_VALUE).intValue());
  }

  /** Rounded up as the scheduler and the admission loop read allocatable, so all agree. */
  private static long baseUnits(Node node, String resource) {
    return ResourceQuantities.baseUnits(resource, amount(node, resource, 0));
  }

  private static BigDecimal amount(Node node, String resource, long missing) {
    Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
    Quantity quantity = allocatable == null ? null : allocatable.get(resource);
    return quantity == null
        ? BigDecimal.valueOf(missing)
        : ResourceQuantities.amount(quantity, "status.allocatable." + resource);
  }

  /**
   * The GPUs a pod holds: those its {@code device-allocated} annotation names, else (scheduled by
   * a scheduler that does not write it) as many as it asks for, wherever the allocator would put
   * them; null when it holds none.
   */
  private static GpuAllocation heldGpus(Pod pod, PodDemand demand, NodeGpuInventory gpus, NodeGpuUsage usage) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    String allocated = annotations == null ? null : annotations.get(WellKnown.DEVICE_ALLOCATED);
    if (allocated != null && !allocated.isBlank()) {
      try {
        String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        return DeviceAllocatedCodec.parse(key, allocated, gpus);
      } catch (InvalidDeviceSpecException e) {
        // Counted by its request below.
      }
    }
    return demand.gpu() == null ? null : GpuAllocator.allocate(gpus, usage, demand.gpu()).allocation().orElse(null);
  }
}
