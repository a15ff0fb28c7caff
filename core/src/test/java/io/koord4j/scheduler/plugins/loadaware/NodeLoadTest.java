package io.koord4j.scheduler.plugins.loadaware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.slo.MetricCollectPolicy;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.NodeMetricInfo;
import io.koord4j.api.slo.NodeMetricSpec;
import io.koord4j.api.slo.NodeMetricStatus;
import io.koord4j.api.slo.PodMetricInfo;
import io.koord4j.api.slo.ResourceMap;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeLoadTest {

  private static final Instant UPDATED = Instant.parse("2026-01-01T10:00:00Z");

  @Test
  void readsNodeAndPodUsageInBaseUnits() {
    NodeLoad load =
        NodeLoad.from(metric(UPDATED.toString(), Map.of("cpu", "1500m", "memory", "2Gi"))).orElseThrow();

    assertThat(load.updateTime()).isEqualTo(UPDATED);
    assertThat(load.nodeUsage().get("cpu")).isEqualTo(1500);
    assertThat(load.nodeUsage().get("memory")).isEqualTo(2L << 30);
    assertThat(load.podUsage().get("team/web").get("cpu")).isEqualTo(500);
    assertThat(load.reportInterval()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void takesTheReportIntervalFromTheCollectPolicy() {
    NodeMetric metric = metric(UPDATED.toString(), Map.of("cpu", "1"));
    MetricCollectPolicy policy = new MetricCollectPolicy();
    policy.setReportIntervalSeconds(20L);
    NodeMetricSpec spec = new NodeMetricSpec();
    spec.setMetricCollectPolicy(policy);
    metric.setSpec(spec);

    assertThat(NodeLoad.from(metric).orElseThrow().reportInterval()).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void expiresOnceOlderThanTheExpiration() {
    NodeLoad load = NodeLoad.from(metric(UPDATED.toString(), Map.of("cpu", "1"))).orElseThrow();
    Duration expiration = Duration.ofSeconds(180);

    assertThat(load.expiredAt(UPDATED.plusSeconds(179), expiration)).isFalse();
    assertThat(load.expiredAt(UPDATED.plusSeconds(180), expiration)).isTrue();
  }

  @Test
  void mayMissPodsPlacedAfterOrShortlyBeforeTheMeasurement() {
    NodeLoad load = NodeLoad.from(metric(UPDATED.toString(), Map.of("cpu", "1"))).orElseThrow();

    assertThat(load.mayMiss(UPDATED.plusSeconds(1))).isTrue();
    assertThat(load.mayMiss(UPDATED.minusSeconds(59))).isTrue();
    assertThat(load.mayMiss(UPDATED.minusSeconds(60))).isFalse();
  }

  @Test
  void namesTheFieldOfBadInput() {
    assertThatThrownBy(() -> NodeLoad.from(metric("yesterday", Map.of("cpu", "1"))))
        .hasMessage("status.updateTime: \"yesterday\" is not an RFC 3339 time");
    assertThatThrownBy(() -> NodeLoad.from(metric(UPDATED.toString(), Map.of("cpu", "lots"))))
        .hasMessageStartingWith("status.nodeMetric.nodeUsage.resources[cpu]");
    assertThatThrownBy(() -> NodeLoad.from(metric(UPDATED.toString(), Map.of("cpu", "-1"))))
        .hasMessage("status.nodeMetric.nodeUsage.resources[cpu]: usage must not be negative");
    assertThatThrownBy(() -> NodeLoad.from(metric(UPDATED.toString(), null)))
        .hasMessage("status.nodeMetric.nodeUsage: required");
  }

  @Test
  void isEmptyUntilTheAgentReports() {
    assertThat(NodeLoad.from(new NodeMetric())).isEmpty();
  }

  static NodeMetric metric(String updateTime, Map<String, String> nodeUsage) {
    NodeMetricInfo node = new NodeMetricInfo();
    node.setNodeUsage(nodeUsage == null ? null : resources(nodeUsage));
    PodMetricInfo pod = new PodMetricInfo();
    pod.setNamespace("team");
    pod.setName("web");
    pod.setPodUsage(resources(Map.of("cpu", "500m")));
    NodeMetricStatus status = new NodeMetricStatus();
    status.setUpdateTime(updateTime);
    status.setNodeMetric(node);
    status.setPodsMetric(List.of(pod));
    NodeMetric metric = new NodeMetric();
    metric.setStatus(status);
    return metric;
  }

  static ResourceMap resources(Map<String, String> amounts) {
    ResourceMap map = new ResourceMap();
    map.setResources(
        amounts.entrySet().stream()
            .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> new Quantity(e.getValue()))));
    return map;
  }
}
