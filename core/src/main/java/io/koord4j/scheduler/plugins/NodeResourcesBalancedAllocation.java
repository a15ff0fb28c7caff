package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.PreScorePlugin;
import io.koord4j.scheduler.framework.ScorePlugin;
import java.util.EnumSet;
import java.util.List;

/**
 * Prefers nodes whose CPU and memory would be used in like shares once the pod is placed, so that
 * neither runs out while the other is left idle: 100 × (1 − the standard deviation of the shares
 * of allocatable requested), each share at most 1. A pod that requests neither scores 0 everywhere.
 */
public final class NodeResourcesBalancedAllocation extends BasePlugin implements PreScorePlugin, ScorePlugin {

  public static final String NAME = "NodeResourcesBalancedAllocation";
  private static final List<String> BALANCED = List.of(ResourceQuantities.CPU, ResourceQuantities.MEMORY);
  private static final CycleState.Key<ResourceVector> REQUEST = new CycleState.Key<>(NAME);

  public NodeResourcesBalancedAllocation() {
    super(NAME, EnumSet.noneOf(ClusterEvent.class));
  }

  @Override
  public void preScore(CycleState state, Pod pod, List<NodeInfo> feasible) {
    state.put(REQUEST, ResourceQuantities.requestOf(pod));
  }

  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    ResourceVector request = state.get(REQUEST);
    if (BALANCED.stream().allMatch(resource -> request.get(resource) <= 0)) {
      return 0;
    }
    double[] shares = new double[BALANCED.size()];
    int counted = 0;
    for (String resource : BALANCED) {
      long allocatable = node.allocatable().get(resource);
      if (allocatable > 0) {
        double requested = node.requested().get(resource) + request.get(resource);
        shares[counted++] = Math.min(1, requested / allocatable);
      }
    }
    return (long) ((1 - standardDeviation(shares, counted)) * MAX_SCORE);
  }

  private static double standardDeviation(double[] values, int count) {
    if (count == 0) {
      return 0;
    }
    double mean = 0;
    for (int i = 0; i < count; i++) {
      mean += values[i] / count;
    }
    double variance = 0;
    for (int i = 0; i < count; i++) {
      variance += (values[i] - mean) * (values[i] - mean) / count;
    }
    return Math.sqrt(variance);
  }
}
