package io.koord4j.scheduler.plugins.loadaware;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.colocation.SystemPods;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.PreFilterPlugin;
import io.koord4j.scheduler.framework.ReservePlugin;
import io.koord4j.scheduler.framework.ScorePlugin;
import io.koord4j.scheduler.framework.Status;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Keeps pods off nodes whose measured usage (NodeMetric) plus what the pod and the pods placed
 * since the measurement are expected to use would pass a threshold, and prefers the least used
 * nodes. Load awareness is an optimisation: a node without a NodeMetric, or with one older than
 * the expiration, passes the filter and scores 0.
 */
public final class LoadAware extends BasePlugin implements PreFilterPlugin, FilterPlugin, ScorePlugin, ReservePlugin {

  public static final String NAME = "LoadAwareScheduling";
  private static final CycleState.Key<ResourceVector> ESTIMATE = new CycleState.Key<>(NAME);

  private final LoadAwareArgs args;
  private final PodUsageEstimator estimator;
  private final NodeLoads loads;
  private final Clock clock;

  public LoadAware(LoadAwareArgs args, PodUsageEstimator estimator, NodeLoads loads, Clock clock) {
    super(NAME, EnumSet.of(ClusterEvent.NODE_METRIC_CHANGED, ClusterEvent.ASSIGNED_POD_DELETED, ClusterEvent.NODE_ADDED));
    this.args = args;
    this.estimator = estimator;
    this.loads = loads;
    this.clock = clock;
  }

  @Override
  public Status preFilter(CycleState state, Pod pod) {
    state.put(ESTIMATE, estimator.estimate(pod));
    return Status.SUCCESS;
  }

  @Override
  public Status filter(CycleState state, Pod pod, NodeInfo node) {
    Optional<NodeLoad> load = freshLoad(node.name());
    if (load.isEmpty() || SystemPods.isDaemonSetPod(pod)) {
      return Status.SUCCESS;
    }
    ResourceVector used = estimatedUsage(state.get(ESTIMATE), node.name(), load.get());
    for (Map.Entry<String, Long> threshold : args.usageThresholds().entrySet()) {
      String resource = threshold.getKey();
      long total = node.allocatable().get(resource);
      if (threshold.getValue() > 0
          && total > 0
          && Math.round(used.get(resource) * 100.0 / total) > threshold.getValue()) {
        return Status.unschedulable("node(s) " + resource + " usage exceed threshold");
      }
    }
    return Status.SUCCESS;
  }

  /** The weighted share of allocatable left unused, 0..100; 0 without a fresh metric. */
  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    Optional<NodeLoad> load = freshLoad(node.name());
    if (load.isEmpty()) {
      return 0;
    }
    ResourceVector used = estimatedUsage(state.get(ESTIMATE), node.name(), load.get());
    long weighted = 0;
    long weights = 0;
    for (Map.Entry<String, Long> weight : args.resourceWeights().entrySet()) {
      String resource = weight.getKey();
      weighted +=
          leastUsedScore(used.get(resource), node.allocatable().get(resource)) * weight.getValue();
      weights += weight.getValue();
    }
    return weights == 0 ? 0 : weighted / weights;
  }

  @Override
  public Status reserve(CycleState state, Pod pod, String nodeName) {
    loads.assign(pod, nodeName, clock.instant());
    return Status.SUCCESS;
  }

  @Override
  public void unreserve(CycleState state, Pod pod, String nodeName) {
    loads.unassign(pod.getMetadata().getUid());
  }

  private Optional<NodeLoad> freshLoad(String nodeName) {
    return loads
        .metric(nodeName)
        .filter(load -> !load.expiredAt(clock.instant(), args.nodeMetricExpiration()));
  }

  /**
   * The measured node usage, with each pod the measurement may miss counted at its estimate (or
   * its measured use, if higher) instead of its measured use, plus the incoming pod's estimate.
   */
  private ResourceVector estimatedUsage(ResourceVector incoming, String nodeName, NodeLoad load) {
    ResourceVector estimated = incoming;
    ResourceVector replacedMeasurements = ResourceVector.EMPTY;
    for (NodeLoads.Assignment assigned : loads.assigned(nodeName)) {
      ResourceVector measured = load.podUsage().get(assigned.key());
      if (measured == null) {
        estimated = estimated.add(assigned.estimate());
      } else if (load.mayMiss(assigned.at())) {
        estimated = estimated.add(assigned.estimate().max(measured));
        replacedMeasurements = replacedMeasurements.add(measured);
      }
    }
    return estimated.add(minusWherePossible(load.nodeUsage(), replacedMeasurements));
  }

  /** {@code usage − replaced} per resource, leaving a resource alone where it would go negative. */
  private static ResourceVector minusWherePossible(ResourceVector usage, ResourceVector replaced) {
    Map<String, Long> out = new TreeMap<>(usage.asMap());
    out.replaceAll(
        (resource, amount) ->
            amount >= replaced.get(resource) ? amount - replaced.get(resource) : amount);
    return ResourceVector.of(out);
  }

  private static long leastUsedScore(long used, long capacity) {
    if (capacity == 0 || used > capacity) {
      return 0;
    }
    return (capacity - used) * MAX_SCORE / capacity;
  }
}
