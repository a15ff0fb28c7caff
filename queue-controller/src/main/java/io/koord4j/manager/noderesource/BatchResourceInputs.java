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
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

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

  static List<BatchResourceCalculator.PodInfo> pods(List<Pod> pods) {
    return pods.stream().map(BatchResourceInputs::pod).toList();
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
        pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(),
        PriorityClass.of(pod),
        QosClass.of(pod),
        active,
        new CpuMemory(
            request.getOrDefault("cpu", BigDecimal.ZERO).movePointRight(3).longValue(),
            request.getOrDefault("memory", BigDecimal.ZERO).longValue()));
  }

  private static CpuMemory usage(ResourceMap map) {
    Map<String, Quantity> resources = map == null ? null : map.getResources();
    if (resources == null) {
      return CpuMemory.ZERO;
    }
    Quantity cpu = resources.get("cpu");
    Quantity memory = resources.get("memory");
    return new CpuMemory(
        cpu == null ? 0 : Quantity.getAmountInBytes(cpu).movePointRight(3).longValue(),
        memory == null ? 0 : Quantity.getAmountInBytes(memory).longValue());
  }
}
