package io.koord4j.manager.nodeslo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.api.slo.NodeSLOSpec;
import io.koord4j.api.slo.ResourceThresholdStrategy;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeSloConfigTest {
  /** The NodeSLO keys of Koordinator's documented sample ConfigMap, trimmed. */
  private static final Map<String, String> SAMPLE = Map.of(
      NodeSloConfig.RESOURCE_THRESHOLD_KEY, """
          {"clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": 60, "memoryEvictThresholdPercent": 75},
           "nodeStrategies": [
             {"name": "alios", "nodeSelector": {"matchLabels": {"kubernetes.io/kernel": "alios"}},
              "cpuSuppressThresholdPercent": 50, "cpuEvictBEUsageThresholdPercent": 80},
             {"name": "big", "nodeSelector": {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["big", "huge"]}]},
              "enable": false}]}""",
      NodeSloConfig.RESOURCE_QOS_KEY, """
          {"clusterStrategy": {"beClass": {"memoryQOS": {"enable": true, "wmarkRatio": 95, "wmarkMinAdj": 50}}},
           "nodeStrategies": [{"name": "alios", "nodeSelector": {"matchLabels": {"kubernetes.io/kernel": "alios"}},
                               "beClass": {"memoryQOS": {"wmarkRatio": 90}}}]}""",
      NodeSloConfig.CPU_BURST_KEY, """
          {"clusterStrategy": {"policy": "none", "cfsQuotaBurstPercent": 300},
           "nodeStrategies": [{"name": "alios", "nodeSelector": {"matchLabels": {"kubernetes.io/kernel": "alios"}},
                               "policy": "cfsQuotaBurstOnly", "cfsQuotaBurstPercent": 400}]}""",
      NodeSloConfig.SYSTEM_KEY, """
          {"clusterStrategy": {"minFreeKbytesFactor": 100, "watermarkScaleFactor": 150}}""");

  @Test
  void withoutTheConfigMapEveryNodeGetsKoordinatorsDefaultThresholdsOnly() {
    NodeSLOSpec spec = NodeSloConfig.DEFAULT.specFor(Map.of("any", "node"));

    ResourceThresholdStrategy thresholds = spec.getResourceUsedThresholdWithBE();
    assertThat(thresholds.getEnable()).isFalse();
    assertThat(thresholds.getCpuSuppressThresholdPercent()).isEqualTo(65);
    assertThat(thresholds.getCpuSuppressPolicy()).isEqualTo("cpuset");
    assertThat(thresholds.getMemoryEvictThresholdPercent()).isEqualTo(70);
    assertThat(thresholds.getCpuEvictPolicy()).isEqualTo("evictByRealLimit");
    assertThat(spec.getResourceQOSStrategy()).isNull();
    assertThat(spec.getCpuBurstStrategy()).isNull();
    assertThat(spec.getSystemStrategy()).isNull();
  }

  @Test
  void aNodeNoStrategySelectsGetsTheClusterStrategyOverTheDefaults() {
    NodeSLOSpec spec = NodeSloConfig.parse(SAMPLE).specFor(Map.of("kubernetes.io/kernel", "linux"));

    ResourceThresholdStrategy thresholds = spec.getResourceUsedThresholdWithBE();
    assertThat(thresholds.getEnable()).isTrue();
    assertThat(thresholds.getCpuSuppressThresholdPercent()).isEqualTo(60);
    assertThat(thresholds.getMemoryEvictThresholdPercent()).isEqualTo(75);
    assertThat(thresholds.getCpuSuppressPolicy()).as("default kept").isEqualTo("cpuset");
    assertThat(thresholds.getCpuEvictBEUsageThresholdPercent()).isNull();
    assertThat(spec.getResourceQOSStrategy())
        .isEqualTo(Map.of("beClass", Map.of("memoryQOS", Map.of("enable", true, "wmarkRatio", 95, "wmarkMinAdj", 50))));
    assertThat(spec.getCpuBurstStrategy()).isEqualTo(Map.of("policy", "none", "cfsQuotaBurstPercent", 300));
    assertThat(spec.getSystemStrategy()).isEqualTo(Map.of("minFreeKbytesFactor", 100, "watermarkScaleFactor", 150));
  }

  @Test
  void theFirstMatchingNodeStrategyIsMergedOverTheClusterStrategyAtEveryDepth() {
    NodeSLOSpec alios = NodeSloConfig.parse(SAMPLE).specFor(Map.of("kubernetes.io/kernel", "alios", "pool", "big"));

    ResourceThresholdStrategy thresholds = alios.getResourceUsedThresholdWithBE();
    assertThat(thresholds.getEnable()).as("from the cluster strategy, not the later 'big' one").isTrue();
    assertThat(thresholds.getCpuSuppressThresholdPercent()).isEqualTo(50);
    assertThat(thresholds.getCpuEvictBEUsageThresholdPercent()).isEqualTo(80);
    assertThat(thresholds.getMemoryEvictThresholdPercent()).isEqualTo(75);
    assertThat(alios.getResourceQOSStrategy())
        .isEqualTo(Map.of("beClass", Map.of("memoryQOS", Map.of("enable", true, "wmarkRatio", 90, "wmarkMinAdj", 50))));
    assertThat(alios.getCpuBurstStrategy()).isEqualTo(Map.of("policy", "cfsQuotaBurstOnly", "cfsQuotaBurstPercent", 400));
  }

  @Test
  void matchExpressionsSelectNodes() {
    NodeSloConfig config = NodeSloConfig.parse(SAMPLE);

    assertThat(config.specFor(Map.of("pool", "huge")).getResourceUsedThresholdWithBE().getEnable()).isFalse();
    assertThat(config.specFor(Map.of("pool", "small")).getResourceUsedThresholdWithBE().getEnable()).isTrue();
  }

  @Test
  void mistakesNameTheKeyAndTheField() {
    assertThatThrownBy(() -> NodeSloConfig.parse(Map.of(NodeSloConfig.RESOURCE_THRESHOLD_KEY,
        "{\"clusterStrategy\": {\"cpuSuppressThresholdPercent\": 120}}")))
        .hasMessageContaining("resource-threshold-config: clusterStrategy")
        .hasMessageContaining("cpuSuppressThresholdPercent must be within 0..100, not 120");
    assertThatThrownBy(() -> NodeSloConfig.parse(Map.of(NodeSloConfig.RESOURCE_THRESHOLD_KEY,
        "{\"nodeStrategies\": [{\"name\": \"a\", \"memoryEvictThresholdPercent\": \"high\"}]}")))
        .hasMessageContaining("resource-threshold-config: nodeStrategies[0].nodeSelector is required");
    assertThatThrownBy(() -> NodeSloConfig.parse(Map.of(NodeSloConfig.RESOURCE_THRESHOLD_KEY,
        "{\"nodeStrategies\": [{\"nodeSelector\": {}, \"memoryEvictThresholdPercent\": \"high\"}]}")))
        .hasMessageContaining("resource-threshold-config: nodeStrategies[0]");
    assertThatThrownBy(() -> NodeSloConfig.parse(Map.of(NodeSloConfig.CPU_BURST_KEY,
        "{\"nodeStrategies\": [{\"nodeSelector\": {\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"Near\"}]}}]}")))
        .hasMessageContaining("cpu-burst-config: nodeStrategies[0].nodeSelector.matchExpressions[0].operator must be In, NotIn, Exists or DoesNotExist, not Near");
    assertThatThrownBy(() -> NodeSloConfig.parse(Map.of(NodeSloConfig.SYSTEM_KEY, "{\"clusterStrategy\": 3}")))
        .hasMessageContaining("system-config: clusterStrategy must be an object, not 3");
    assertThatThrownBy(() -> NodeSloConfig.parse(Map.of(NodeSloConfig.RESOURCE_QOS_KEY, "{oops")))
        .hasMessageContaining("resource-qos-config is not valid JSON");
  }
}
