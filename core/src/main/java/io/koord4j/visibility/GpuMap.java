package io.koord4j.visibility;

import io.koord4j.device.GpuDevice;
import io.koord4j.device.GpuPartition;
import io.koord4j.device.NodeGpuUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** {@code top gpus}: per node each GPU with the pod holding it, and the NVLink partitions still free. */
public final class GpuMap {
  private GpuMap() {}

  public record NodeGpus(String node, String model, int total, int free, List<Gpu> gpus, List<String> freePartitions) {}

  public record Gpu(int minor, boolean healthy, String holder) {}

  public static List<NodeGpus> of(List<GpuNodes.GpuNode> nodes) {
    return nodes.stream().map(GpuMap::node).toList();
  }

  public static String table(List<NodeGpus> rows) {
    TextTable table = new TextTable("NODE", "MODEL", "GPU", "HOLDER", "FREE NVLINK PARTITIONS");
    for (NodeGpus node : rows) {
      String name = node.node() + " (" + node.free() + "/" + node.total() + " free)";
      String partitions = node.freePartitions().isEmpty() ? "-" : String.join(" ", node.freePartitions());
      for (Gpu gpu : node.gpus()) {
        table.row(name, node.model() == null ? "-" : node.model(), gpu.minor(),
            gpu.holder() == null ? (gpu.healthy() ? "free" : "unhealthy") : gpu.holder(), partitions);
        name = "";
        partitions = "";
      }
    }
    return table.render();
  }

  private static NodeGpus node(GpuNodes.GpuNode node) {
    NodeGpuUsage usage = node.usage();
    List<Gpu> gpus = new ArrayList<>();
    for (GpuDevice device : node.inventory().devices()) {
      gpus.add(new Gpu(device.minor(), device.healthy(), node.holders().get(device.minor())));
    }
    long free = node.inventory().devices().stream()
        .filter(d -> d.healthy() && usage.isFree(d.minor())).count();
    return new NodeGpus(node.inventory().nodeName(), node.inventory().model(), gpus.size(), (int) free, gpus,
        freePartitions(node));
  }

  /** Free partitions of two GPUs or more, largest first: single GPUs say nothing about links. */
  private static List<String> freePartitions(GpuNodes.GpuNode node) {
    List<String> free = new ArrayList<>();
    for (int size = node.inventory().devices().size(); size >= 2; size--) {
      for (GpuPartition partition : node.inventory().partitionTable().partitionsOfSize(size)) {
        if (partition.minors().stream().allMatch(node.usage()::isFree)) {
          free.add(partition.minors().stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]")));
        }
      }
    }
    return free;
  }
}
