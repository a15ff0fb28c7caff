package io.koord4j.manager.noderesource;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.PodMetricInfo;
import io.koord4j.api.slo.ResourceMap;
import io.koord4j.colocation.NodeCapacity;
import io.koord4j.colocation.PriorityClass;
import io.koord4j.colocation.QosClass;
import io.koord4j.jobs.PodRequests;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Turns Kubernetes objects into the calculator's plain values; no I/O. */
final class BatchResourceInputs {
  private BatchResourceInputs() {}

  static BatchResourceCalculator.NodeFigures node(Node node, NodeMetric metric) {
    NodeCapacity capacity = NodeCapacity.of(node);
    ResourceMap system = metric.getStatus().getNodeMetric() == null ? null : metric.getStatus().getNodeMetric().getSystemUsage();
    return new BatchResourceCalculator.NodeFigures(
        new CpuMemory(capacity.cpuMilli(), capacity.memoryBytes()),
        new CpuMemory(capacity.reservedCpuMilli(), capacity.reservedMemoryBytes()),
        usage(system));
  }

  /**
   * The pods the calculator weighs. A pod whose requests cannot be read (the API server accepts
   * quantities such as {@code 1e500000001}, beyond what the codec reads) is left out, with why told
   * to {@code leftOut}, rather than keeping its node's batch resources from being computed.
   */
  static List<BatchResourceCalculator.PodInfo> pods(List<Pod> pods, Consumer<String> leftOut) {
    List<BatchResourceCalculator.PodInfo> read = new ArrayList<>();
    for (Pod pod : pods) {
      try {
        read.add(pod(pod));
      } catch (IllegalArgumentException e) {
        leftOut.accept("pod " + key(pod) + " left out: " + e.getMessage());
      }
    }
    return read;
  }

  static List<BatchResourceCalculator.PodUsage> podUsages(NodeMetric metric) {
    List<PodMetricInfo> pods = metric.getStatus().getPodsMetric();
    return pods == null
        ? List.of()
        : pods.stream()
            .map(pod -> new BatchResourceCalculator.PodUsage(
                pod.getNamespace() + "/" + pod.getName(), pod.getPriority(), usage(pod.getPodUsage())))
            .toList();
  }

  private static BatchResourceCalculator.PodInfo pod(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    boolean active = phase == null || phase.equals("Running") || phase.equals("Pending");
    Map<String, BigDecimal> request = PodRequests.of(pod.getSpec(), "spec");
    return new BatchResourceCalculator.PodInfo(
        key(pod),
        PriorityClass.of(pod),
        QosClass.of(pod),
        active,
        new CpuMemory(baseUnits(request, ResourceQuantities.CPU), baseUnits(request, ResourceQuantities.MEMORY)));
  }

  /** Rounded up, and beyond a long as {@link Long#MAX_VALUE} rather than its low bits. */
  private static long baseUnits(Map<String, BigDecimal> request, String resource) {
    return ResourceQuantities.baseUnits(resource, request.getOrDefault(resource, BigDecimal.ZERO));
  }

  private static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  private static CpuMemory usage(ResourceMap map) {
    Map<String, Quantity> resources = map == null ? null : map.getResources();
    if (resources == null) {
      return CpuMemory.ZERO;
    }
    return new CpuMemory(
        amount(resources, ResourceQuantities.CPU).movePointRight(3).longValue(),
        amount(resources, ResourceQuantities.MEMORY).longValue());
  }

  /** What the node agent measured, read with the one codec (NodeMetric is not the tenants' to write). */
  private static BigDecimal amount(Map<String, Quantity> resources, String resource) {
    Quantity quantity = resources.get(resource);
    return quantity == null ? BigDecimal.ZERO : ResourceQuantities.amount(quantity, "usage[" + resource + "]");
  }
}
