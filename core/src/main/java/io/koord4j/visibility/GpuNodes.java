package io.koord4j.visibility;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.device.Device;
import io.koord4j.device.GpuAllocation;
import io.koord4j.device.NodeGpuInventory;
import io.koord4j.device.NodeGpuUsage;
import io.koord4j.device.kube.NodeGpus;
import io.koord4j.device.kube.PodGpus;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The GPU nodes of the cluster with what their bound pods hold, read as the gang check reads them. */
public final class GpuNodes {
  private GpuNodes() {}

  /** One node: its labels, its GPUs, what is taken, and which pod holds which minor. */
  public record GpuNode(
      Map<String, String> labels, NodeGpuInventory inventory, NodeGpuUsage usage, Map<Integer, String> holders) {}

  public static List<GpuNode> of(List<Node> nodes, List<Device> devices, List<Pod> boundPods) {
    Map<String, Device> deviceByNode = devices.stream()
        .collect(Collectors.toMap(d -> d.getMetadata().getName(), Function.identity(), (a, b) -> a));
    Map<String, List<Pod>> podsByNode = boundPods.stream()
        .collect(Collectors.groupingBy(pod -> pod.getSpec().getNodeName()));
    return nodes.stream()
        .sorted(Comparator.comparing(n -> n.getMetadata().getName()))
        .map(node -> held(node, NodeGpus.inventory(node, deviceByNode.get(node.getMetadata().getName())),
            podsByNode.getOrDefault(node.getMetadata().getName(), List.of())))
        .filter(node -> !node.inventory().devices().isEmpty())
        .toList();
  }

  private static GpuNode held(Node node, NodeGpuInventory inventory, List<Pod> pods) {
    NodeGpuUsage usage = NodeGpuUsage.NONE;
    Map<Integer, String> holders = new HashMap<>();
    for (Pod pod : pods) {
      GpuAllocation allocation = PodGpus.held(pod, inventory, usage);
      if (allocation != null) {
        usage = usage.reserve(allocation);
        allocation.minors().forEach(minor -> holders.merge(minor, PodGpus.keyOf(pod), (a, b) -> a + "," + b));
      }
    }
    Map<String, String> labels = node.getMetadata().getLabels();
    return new GpuNode(labels == null ? Map.of() : labels, inventory, usage, holders);
  }
}
