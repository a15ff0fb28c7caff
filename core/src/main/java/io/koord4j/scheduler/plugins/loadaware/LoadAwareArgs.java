package io.koord4j.scheduler.plugins.loadaware;

import io.koord4j.quantity.ResourceQuantities;
import java.time.Duration;
import java.util.Map;

/**
 * Settings of the LoadAware plugin, named and defaulted as Koordinator's LoadAwareSchedulingArgs.
 *
 * @param usageThresholds per resource, the highest share of allocatable (percent) a node may be
 *     estimated to use after the pod lands; 0 turns the check off for that resource
 * @param resourceWeights per resource, how much its free share counts in the score
 * @param estimatedScalingFactors per resource, the share (percent) of a pod's request, or of its
 *     limit when higher, that a newly placed pod is expected to use
 * @param nodeMetricExpiration a NodeMetric updated longer ago than this is ignored
 */
public record LoadAwareArgs(
    Map<String, Long> usageThresholds,
    Map<String, Long> resourceWeights,
    Map<String, Long> estimatedScalingFactors,
    Duration nodeMetricExpiration) {

  public LoadAwareArgs {
    usageThresholds = Map.copyOf(usageThresholds);
    resourceWeights = Map.copyOf(resourceWeights);
    estimatedScalingFactors = Map.copyOf(estimatedScalingFactors);
  }

  /** Koordinator's defaults. */
  public static LoadAwareArgs defaults() {
    String cpu = ResourceQuantities.CPU;
    String memory = ResourceQuantities.MEMORY;
    return new LoadAwareArgs(
        Map.of(cpu, 65L, memory, 95L),
        Map.of(cpu, 1L, memory, 1L),
        Map.of(cpu, 85L, memory, 70L),
        Duration.ofSeconds(180));
  }
}
