package io.koord4j.koordlet.report;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.slo.AggregatedUsage;
import io.koord4j.api.slo.NodeMetricInfo;
import io.koord4j.api.slo.NodeMetricStatus;
import io.koord4j.api.slo.PodMetricInfo;
import io.koord4j.api.slo.ResourceMap;
import io.koord4j.colocation.PriorityClass;
import io.koord4j.colocation.QosClass;
import io.koord4j.koordlet.metrics.Aggregation;
import io.koord4j.koordlet.metrics.Usage;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds a NodeMetric status from measured usage; no I/O. */
public final class NodeMetricStatuses {
  private NodeMetricStatuses() {}

  /** Node CPU (cores) and memory (bytes) statistics over one window. */
  public record WindowUsage(Duration window, Aggregation cpu, Aggregation memory) {}

  /**
   * What the collector measured.
   *
   * @param nodeAverage node usage averaged over the aggregate duration
   * @param podAverages pod usage averaged over the aggregate duration, by pod UID
   */
  public record Measured(Usage nodeAverage, List<WindowUsage> nodeWindows, Map<String, Usage> podAverages) {}

  /**
   * The status Koordinator's agent reports: node usage, system usage (node minus all pods),
   * node percentiles per window, and every measured pod of {@code pods} with its priority and QoS.
   */
  public static NodeMetricStatus build(Instant now, Measured measured, List<Pod> pods) {
    List<PodMetricInfo> podMetrics = new ArrayList<>();
    List<Usage> podUsages = new ArrayList<>();
    for (Pod pod : pods) {
      Usage usage = measured.podAverages().get(pod.getMetadata().getUid());
      if (usage != null) {
        podUsages.add(usage);
        podMetrics.add(podMetric(pod, usage));
      }
    }
    podMetrics.sort(Comparator.comparing(PodMetricInfo::getNamespace).thenComparing(PodMetricInfo::getName));

    NodeMetricInfo node = new NodeMetricInfo();
    node.setNodeUsage(resources(measured.nodeAverage()));
    node.setSystemUsage(resources(measured.nodeAverage().outside(podUsages)));
    node.setAggregatedNodeUsages(measured.nodeWindows().stream().map(NodeMetricStatuses::aggregated).toList());

    NodeMetricStatus status = new NodeMetricStatus();
    status.setUpdateTime(now.truncatedTo(ChronoUnit.SECONDS).toString());
    status.setNodeMetric(node);
    status.setPodsMetric(podMetrics);
    return status;
  }

  private static PodMetricInfo podMetric(Pod pod, Usage usage) {
    PodMetricInfo info = new PodMetricInfo();
    info.setNamespace(pod.getMetadata().getNamespace());
    info.setName(pod.getMetadata().getName());
    info.setPodUsage(resources(usage));
    info.setPriority(PriorityClass.of(pod).value());
    info.setQos(QosClass.of(pod).name());
    return info;
  }

  private static AggregatedUsage aggregated(WindowUsage window) {
    Map<String, ResourceMap> byStatistic = new LinkedHashMap<>();
    Map<String, Double> cpu = window.cpu().byName();
    Map<String, Double> memory = window.memory().byName();
    for (String statistic : List.of("avg", "p50", "p90", "p95", "p99")) {
      byStatistic.put(statistic, resources(new Usage(cpu.get(statistic), memory.get(statistic))));
    }
    AggregatedUsage usage = new AggregatedUsage();
    usage.setDuration(GoDurations.format(window.window()));
    usage.setUsage(byStatistic);
    return usage;
  }

  /** CPU in milli-cores and memory in bytes, as Koordinator writes them. */
  public static ResourceMap resources(Usage usage) {
    Map<String, Quantity> resources = new LinkedHashMap<>();
    resources.put("cpu", cpu(Math.round(usage.cpuCores() * 1000)));
    resources.put("memory", new Quantity(Long.toString(Math.round(usage.memoryBytes()))));
    ResourceMap map = new ResourceMap();
    map.setResources(resources);
    return map;
  }

  private static Quantity cpu(long milli) {
    return milli % 1000 == 0 ? new Quantity(Long.toString(milli / 1000)) : new Quantity(milli + "m");
  }
}
