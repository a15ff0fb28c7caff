package io.koord4j.manager.noderesource;

import java.time.Duration;

/**
 * Koordinator's colocation strategy for one node, from the {@code colocation-config} key of the
 * {@code slo-controller-config} ConfigMap, defaults filled in.
 *
 * @param enable batch resources are offered only when true (default false)
 * @param cpuReclaimThresholdPercent the share of node CPU that may be reclaimed (default 60)
 * @param memoryReclaimThresholdPercent the share of node memory that may be reclaimed (default 65)
 * @param cpuCalculatePolicy usage (default) or maxUsageRequest
 * @param memoryCalculatePolicy usage (default), request or maxUsageRequest
 * @param degradeTime a NodeMetric older than this resets the node's batch resources (default 15 min)
 * @param updateTimeThreshold written again at least this often (default 300 s)
 * @param resourceDiffThreshold or sooner when they move by more than this fraction (default 0.1)
 */
public record ColocationStrategy(
    boolean enable,
    long cpuReclaimThresholdPercent,
    long memoryReclaimThresholdPercent,
    CalculatePolicy cpuCalculatePolicy,
    CalculatePolicy memoryCalculatePolicy,
    Duration degradeTime,
    Duration updateTimeThreshold,
    double resourceDiffThreshold) {

  public static final ColocationStrategy DEFAULT =
      new ColocationStrategy(
          false, 60, 65, CalculatePolicy.USAGE, CalculatePolicy.USAGE,
          Duration.ofMinutes(15), Duration.ofSeconds(300), 0.1);
}
