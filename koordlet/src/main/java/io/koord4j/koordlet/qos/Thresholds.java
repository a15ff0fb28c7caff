package io.koord4j.koordlet.qos;

import io.koord4j.api.slo.NodeSLO;
import io.koord4j.api.slo.ResourceThresholdStrategy;
import java.util.Optional;

/**
 * NodeSLO's {@code resourceUsedThresholdWithBE} with Koordinator's defaults: off unless enabled,
 * CPU suppressed at 65 %, memory evicted at 70 %.
 */
public record Thresholds(
    boolean enabled, long cpuSuppressPercent, Long cpuSuppressMinPercent, long memoryEvictPercent, Long memoryEvictLowerPercent) {
  public static final long DEFAULT_CPU_SUPPRESS_PERCENT = 65;
  public static final long DEFAULT_MEMORY_EVICT_PERCENT = 70;

  public static Thresholds of(Optional<NodeSLO> nodeSlo) {
    ResourceThresholdStrategy strategy =
        nodeSlo.map(slo -> slo.getSpec() == null ? null : slo.getSpec().getResourceUsedThresholdWithBE()).orElse(null);
    if (strategy == null) {
      return new Thresholds(false, DEFAULT_CPU_SUPPRESS_PERCENT, null, DEFAULT_MEMORY_EVICT_PERCENT, null);
    }
    return new Thresholds(
        Boolean.TRUE.equals(strategy.getEnable()),
        orDefault(strategy.getCpuSuppressThresholdPercent(), DEFAULT_CPU_SUPPRESS_PERCENT),
        strategy.getCpuSuppressMinPercent(),
        orDefault(strategy.getMemoryEvictThresholdPercent(), DEFAULT_MEMORY_EVICT_PERCENT),
        strategy.getMemoryEvictLowerPercent());
  }

  private static long orDefault(Long value, long fallback) {
    return value == null ? fallback : value;
  }
}
