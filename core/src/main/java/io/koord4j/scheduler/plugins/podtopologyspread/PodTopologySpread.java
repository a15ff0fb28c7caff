package io.koord4j.scheduler.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.PreFilterPlugin;
import io.koord4j.scheduler.framework.PreScorePlugin;
import io.koord4j.scheduler.framework.ScorePlugin;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.plugins.LabelSelectors;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Function;

/**
 * Topology spread constraints, as kube-scheduler's plugin of the same name. A
 * {@code DoNotSchedule} constraint refuses a node when placing the pod there would leave its
 * domain more than {@code maxSkew} selected pods above the emptiest domain (taken as empty while
 * fewer than {@code minDomains} domains exist). {@code ScheduleAnyway} constraints score nodes:
 * fewer selected pods in a node's domains is better, each constraint weighed by the logarithm of
 * its number of domains. A pod without constraints of its own is spread by kube-scheduler's
 * system defaults (hostname skew 3, zone skew 5, both preferences) over the pods its owners
 * select, when {@code defaultSelector} knows its owners.
 */
public final class PodTopologySpread extends BasePlugin
    implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {

  public static final String NAME = "PodTopologySpread";
  static final String MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";
  static final String SKEWED = "node(s) didn't match pod topology spread constraints";
  /** Score of a node that lacks a constraint's topology key; normalising turns it into 0. */
  private static final long IGNORED = -1;
  private static final CycleState.Key<SpreadCounts> HARD = new CycleState.Key<>(NAME + "/filter");
  private static final CycleState.Key<SpreadCounts> SOFT = new CycleState.Key<>(NAME + "/score");

  private final Function<Pod, LabelSelector> defaultSelector;

  /**
   * @param defaultSelector the pods that a pod's services, replica sets and stateful sets select,
   *     for the system default constraints; null when it has no such owner
   */
  public PodTopologySpread(Function<Pod, LabelSelector> defaultSelector) {
    super(NAME, EnumSet.of(ClusterEvent.NODE_ADDED, ClusterEvent.NODE_UPDATED, ClusterEvent.POD_ADDED,
        ClusterEvent.ASSIGNED_POD_UPDATED, ClusterEvent.ASSIGNED_POD_DELETED));
    this.defaultSelector = defaultSelector;
  }

  @Override
  public Status preFilter(CycleState state, Pod pod) {
    List<SpreadConstraint> hard = SpreadConstraint.of(pod, "DoNotSchedule");
    state.put(HARD, SpreadCounts.over(pod, hard, state.nodes(), state.nodes()));
    return Status.SUCCESS;
  }

  @Override
  public Status filter(CycleState state, Pod pod, NodeInfo node) {
    SpreadCounts counts = state.get(HARD);
    if (!counts.hasEveryKey(node)) {
      return Status.unresolvable(MISSING_LABEL);
    }
    List<SpreadConstraint> constraints = counts.constraints();
    for (int i = 0; i < constraints.size(); i++) {
      SpreadConstraint constraint = constraints.get(i);
      int self = LabelSelectors.matches(constraint.selector(), SpreadConstraint.labelsOf(pod)) ? 1 : 0;
      int skew = counts.inDomainOf(i, node) + self - counts.emptiest(i);
      if (skew > constraint.maxSkew()) {
        return Status.unschedulable(SKEWED);
      }
    }
    return Status.SUCCESS;
  }

  @Override
  public void preScore(CycleState state, Pod pod, List<NodeInfo> feasible) {
    state.put(SOFT, SpreadCounts.over(pod, softConstraints(pod), feasible, state.nodes()));
  }

  private List<SpreadConstraint> softConstraints(Pod pod) {
    if (!pod.getSpec().getTopologySpreadConstraints().isEmpty()) {
      return SpreadConstraint.of(pod, "ScheduleAnyway");
    }
    LabelSelector owners = defaultSelector.apply(pod);
    return owners == null ? List.of() : SpreadConstraint.systemDefaults(owners);
  }

  /** Selected pods in the node's domains, each constraint weighed; {@link #IGNORED} without its keys. */
  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    SpreadCounts counts = state.get(SOFT);
    if (counts.constraints().isEmpty() || !counts.hasEveryKey(node)) {
      return IGNORED;
    }
    double score = 0;
    for (int i = 0; i < counts.constraints().size(); i++) {
      score += counts.inDomainOf(i, node) * counts.weight(i) + counts.constraints().get(i).maxSkew() - 1;
    }
    return Math.round(score);
  }

  /** Fewest selected pods scores 100; ignored nodes score 0; all empty scores 100 everywhere. */
  @Override
  public void normalize(long[] scores) {
    long lowest = Long.MAX_VALUE;
    long highest = 0;
    for (long score : scores) {
      if (score != IGNORED) {
        lowest = Math.min(lowest, score);
        highest = Math.max(highest, score);
      }
    }
    for (int i = 0; i < scores.length; i++) {
      if (scores[i] == IGNORED) {
        scores[i] = 0;
      } else {
        scores[i] = highest == 0 ? MAX_SCORE : MAX_SCORE * (highest + lowest - scores[i]) / highest;
      }
    }
  }
}
