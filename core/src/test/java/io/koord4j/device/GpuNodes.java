package io.koord4j.device;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Hand-made nodes of eight 80 GiB GPUs: two per PCIe switch ({0,1}, {2,3}, ...), four per NUMA
 * node ({0-3}, {4-7}).
 */
final class GpuNodes {
  static final long GPU_MEMORY = 80L << 30;

  private GpuNodes() {}

  /** An H100 node: the built-in NVLink partition table, policy Prefer. */
  static NodeGpuInventory h100(String name) {
    return node(name, "H100", PartitionPolicy.PREFER);
  }

  static NodeGpuInventory h100Honor(String name) {
    return node(name, "H100", PartitionPolicy.HONOR);
  }

  /** Same topology, no partition table. */
  static NodeGpuInventory a100(String name) {
    return node(name, "A100", PartitionPolicy.PREFER);
  }

  static NodeGpuInventory withTable(NodeGpuInventory node, GpuPartitionTable table) {
    return new NodeGpuInventory(node.nodeName(), node.devices(), table, node.partitionPolicy(), node.model());
  }

  static NodeGpuInventory withUnhealthy(NodeGpuInventory node, int minor) {
    List<GpuDevice> devices = new ArrayList<>();
    for (GpuDevice d : node.devices()) {
      devices.add(
          d.minor() != minor
              ? d
              : new GpuDevice(d.minor(), d.uuid(), false, d.memoryBytes(), d.pcie(), d.numaNode(), d.socket()));
    }
    return new NodeGpuInventory(node.nodeName(), devices, node.partitionTable(), node.partitionPolicy(), node.model());
  }

  private static NodeGpuInventory node(String name, String model, PartitionPolicy policy) {
    List<GpuDevice> devices =
        IntStream.range(0, 8)
            .mapToObj(i -> new GpuDevice(i, "GPU-" + name + "-" + i, true, GPU_MEMORY, "pci" + i / 2, i / 4, i / 4))
            .toList();
    return new NodeGpuInventory(name, devices, GpuPartitionTable.builtIn(model, 8), policy, model);
  }

  /** Usage with each listed GPU wholly taken. */
  static NodeGpuUsage wholeGpusUsed(NodeGpuInventory node, Integer... minors) {
    return NodeGpuUsage.NONE.reserve(
        new GpuAllocation(
            List.of(minors).stream()
                .map(minor -> new AllocatedGpu(minor, null, new GpuShare(100, 100, GPU_MEMORY)))
                .toList()));
  }
}
