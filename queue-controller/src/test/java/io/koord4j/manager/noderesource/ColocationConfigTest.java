package io.koord4j.manager.noderesource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ColocationConfigTest {
  /** Koordinator's documented example, with a node override. */
  private static final String KOORDINATOR_SAMPLE =
      """
      {
        "enable": true,
        "metricAggregateDurationSeconds": 300,
        "metricReportIntervalSeconds": 60,
        "metricAggregatePolicy": {"durations": ["5m", "10m", "15m"]},
        "metricMemoryCollectPolicy": "usageWithoutPageCache",
        "cpuReclaimThresholdPercent": 60,
        "memoryReclaimThresholdPercent": 65,
        "memoryCalculatePolicy": "usage",
        "degradeTimeMinutes": 15,
        "updateTimeThresholdSeconds": 300,
        "resourceDiffThreshold": 0.1,
        "nodeConfigs": [
          {
            "name": "alios",
            "nodeSelector": {"matchLabels": {"kubernetes.io/kernel": "alios"}},
            "updateTimeThresholdSeconds": 360,
            "resourceDiffThreshold": 0.2,
            "memoryReclaimThresholdPercent": 50,
            "memoryCalculatePolicy": "request"
          }
        ]
      }
      """;

  @Test
  void defaultsAreKoordinators() {
    ColocationStrategy strategy = ColocationConfig.DEFAULT.strategyFor(Map.of());
    assertThat(strategy).isEqualTo(ColocationStrategy.DEFAULT);
    assertThat(strategy.enable()).isFalse();
    assertThat(strategy.cpuReclaimThresholdPercent()).isEqualTo(60);
    assertThat(strategy.memoryReclaimThresholdPercent()).isEqualTo(65);
    assertThat(strategy.degradeTime()).isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void nodeConfigsOverrideTheClusterStrategyForMatchingNodes() {
    ColocationConfig config = ColocationConfig.parse(KOORDINATOR_SAMPLE);

    ColocationStrategy plain = config.strategyFor(Map.of("kubernetes.io/kernel", "linux"));
    assertThat(plain.enable()).isTrue();
    assertThat(plain.memoryReclaimThresholdPercent()).isEqualTo(65);
    assertThat(plain.memoryCalculatePolicy()).isEqualTo(CalculatePolicy.USAGE);

    ColocationStrategy alios = config.strategyFor(Map.of("kubernetes.io/kernel", "alios", "zone", "a"));
    assertThat(alios.enable()).isTrue();
    assertThat(alios.memoryReclaimThresholdPercent()).isEqualTo(50);
    assertThat(alios.memoryCalculatePolicy()).isEqualTo(CalculatePolicy.REQUEST);
    assertThat(alios.updateTimeThreshold()).isEqualTo(Duration.ofSeconds(360));
    assertThat(alios.resourceDiffThreshold()).isEqualTo(0.2);
  }

  @Test
  void mistakesNameTheFieldAndTheRule() {
    assertThatThrownBy(() -> ColocationConfig.parse("{\"cpuReclaimThresholdPercent\": 160}"))
        .hasMessage("ConfigMap slo-controller-config key colocation-config: cpuReclaimThresholdPercent must be within 0..100, not 160");
    assertThatThrownBy(() -> ColocationConfig.parse("{\"enable\": \"yes\"}"))
        .hasMessageContaining("enable must be true or false");
    assertThatThrownBy(() -> ColocationConfig.parse("{\"memoryCalculatePolicy\": \"peak\"}"))
        .hasMessageContaining("memoryCalculatePolicy must be usage, request or maxUsageRequest");
    assertThatThrownBy(() -> ColocationConfig.parse("{\"nodeConfigs\": [{\"degradeTimeMinutes\": 5}]}"))
        .hasMessageContaining("nodeConfigs[0].nodeSelector is required");
    assertThatThrownBy(() -> ColocationConfig.parse("{\"nodeConfigs\": [{\"nodeSelector\": {\"matchLabels\": {}}, \"degradeTimeMinutes\": 0}]}"))
        .hasMessageContaining("nodeConfigs[0].degradeTimeMinutes must be at least 1");
    assertThatThrownBy(() -> ColocationConfig.parse("{"))
        .hasMessageContaining("is not valid JSON");
  }

  @Test
  void nodeSelectorsMayUseMatchExpressions() {
    ColocationConfig config = ColocationConfig.parse("""
        {"enable": false,
         "nodeConfigs": [{"nodeSelector": {"matchExpressions": [{"key": "pool", "operator": "NotIn", "values": ["gpu"]}]},
                          "enable": true}]}""");

    assertThat(config.strategyFor(Map.of("pool", "cpu")).enable()).isTrue();
    assertThat(config.strategyFor(Map.of("pool", "gpu")).enable()).isFalse();
  }
}
