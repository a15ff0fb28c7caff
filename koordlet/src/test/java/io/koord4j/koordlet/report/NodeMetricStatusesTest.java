package io.koord4j.koordlet.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.slo.AggregatedUsage;
import io.koord4j.api.slo.MetricCollectPolicy;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.NodeMetricSpec;
import io.koord4j.api.slo.NodeMetricStatus;
import io.koord4j.api.slo.PodMetricInfo;
import io.koord4j.koordlet.metrics.Aggregation;
import io.koord4j.koordlet.metrics.Usage;
import io.koord4j.testing.TestPods;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeMetricStatusesTest {
  private static final long GIB = 1L << 30;

  @Test
  void reportsNodeSystemAndPodsWithPriorityAndQos() {
    Pod service = pod("service", "uid-s", null, Map.of("cpu", "2", "memory", "4Gi"), Map.of("cpu", "2", "memory", "4Gi"));
    Pod batch = pod("batch", "uid-b", 5500, Map.of(), Map.of());
    Pod unmeasured = pod("pending", "uid-p", null, Map.of("cpu", "1"), Map.of());
    NodeMetricStatuses.Measured measured =
        new NodeMetricStatuses.Measured(
            new Usage(3.5, 10 * GIB),
            List.of(new NodeMetricStatuses.WindowUsage(
                Duration.ofMinutes(5), new Aggregation(3, 2.5, 3.8, 3.9, 4.0, 300),
                new Aggregation(9 * GIB, 9 * GIB, 10 * GIB, 10 * GIB, 11 * GIB, 300))),
            Map.of("uid-s", new Usage(1.25, 3 * GIB), "uid-b", new Usage(1.0, 2 * GIB)));

    NodeMetricStatus status =
        NodeMetricStatuses.build(Instant.parse("2026-01-01T10:00:00.123Z"), measured, List.of(service, batch, unmeasured));

    assertThat(status.getUpdateTime()).isEqualTo("2026-01-01T10:00:00Z");
    assertThat(status.getNodeMetric().getNodeUsage().getResources())
        .containsEntry("cpu", new Quantity("3500m"))
        .containsEntry("memory", new Quantity(Long.toString(10 * GIB)));
    assertThat(status.getNodeMetric().getSystemUsage().getResources())
        .containsEntry("cpu", new Quantity("1250m"))
        .containsEntry("memory", new Quantity(Long.toString(5 * GIB)));
    AggregatedUsage window = status.getNodeMetric().getAggregatedNodeUsages().get(0);
    assertThat(window.getDuration()).isEqualTo("5m0s");
    assertThat(window.getUsage()).containsOnlyKeys("avg", "p50", "p90", "p95", "p99");
    assertThat(window.getUsage().get("p99").getResources()).containsEntry("cpu", new Quantity("4"));

    assertThat(status.getPodsMetric()).extracting(PodMetricInfo::getName).containsExactly("batch", "service");
    PodMetricInfo batchMetric = status.getPodsMetric().get(0);
    assertThat(batchMetric.getPriority()).isEqualTo("koord-batch");
    assertThat(batchMetric.getQos()).isEqualTo("BE");
    assertThat(batchMetric.getPodUsage().getResources()).containsEntry("cpu", new Quantity("1"));
    PodMetricInfo serviceMetric = status.getPodsMetric().get(1);
    assertThat(serviceMetric.getPriority()).isEqualTo("koord-prod");
    assertThat(serviceMetric.getQos()).isEqualTo("LSR");
  }

  @Test
  void systemUsageNeverGoesNegative() {
    Pod pod = pod("p", "uid", null, Map.of(), Map.of());
    NodeMetricStatus status = NodeMetricStatuses.build(
        Instant.EPOCH, new NodeMetricStatuses.Measured(new Usage(1, GIB), List.of(), Map.of("uid", new Usage(1.5, 2 * GIB))), List.of(pod));
    assertThat(status.getNodeMetric().getSystemUsage().getResources()).containsEntry("cpu", new Quantity("0"));
  }

  @Test
  void collectPolicyDefaultsAndOverrides() {
    assertThat(CollectPolicy.of(null)).isEqualTo(CollectPolicy.DEFAULT);
    assertThat(CollectPolicy.DEFAULT.longestWindow()).isEqualTo(Duration.ofMinutes(30));

    MetricCollectPolicy spec = new MetricCollectPolicy();
    spec.setReportIntervalSeconds(5L);
    MetricCollectPolicy.AggregatePolicy windows = new MetricCollectPolicy.AggregatePolicy();
    windows.setDurations(List.of("1m", "1h30m"));
    spec.setNodeAggregatePolicy(windows);
    CollectPolicy policy = CollectPolicy.of(nodeMetric(spec));
    assertThat(policy.reportInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(policy.aggregateDuration()).isEqualTo(Duration.ofSeconds(300));
    assertThat(policy.windows()).containsExactly(Duration.ofMinutes(1), Duration.ofMinutes(90));
    assertThat(GoDurations.format(Duration.ofMinutes(90))).isEqualTo("1h30m0s");

    spec.setReportIntervalSeconds(0L);
    assertThatThrownBy(() -> CollectPolicy.of(nodeMetric(spec))).hasMessageContaining("reportIntervalSeconds must be at least 1");
    spec.setReportIntervalSeconds(5L);
    windows.setDurations(List.of("five minutes"));
    assertThatThrownBy(() -> CollectPolicy.of(nodeMetric(spec)))
        .hasMessageContaining("nodeAggregatePolicy.durations")
        .hasMessageContaining("five minutes");
  }

  private static NodeMetric nodeMetric(MetricCollectPolicy policy) {
    NodeMetric nodeMetric = new NodeMetric();
    NodeMetricSpec spec = new NodeMetricSpec();
    spec.setMetricCollectPolicy(policy);
    nodeMetric.setSpec(spec);
    return nodeMetric;
  }

  static Pod pod(String name, String uid, Integer priority, Map<String, String> requests, Map<String, String> limits) {
    Pod pod = TestPods.pod(name, priority, requests, limits);
    pod.getMetadata().setUid(uid);
    return pod;
  }
}
