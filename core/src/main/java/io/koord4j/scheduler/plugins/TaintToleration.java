package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.ScorePlugin;
import io.koord4j.scheduler.framework.Status;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps the pod off nodes with a NoSchedule or NoExecute taint it does not tolerate, and prefers
 * nodes with fewer untolerated PreferNoSchedule taints.
 */
public final class TaintToleration extends BasePlugin implements FilterPlugin, ScorePlugin {

  public static final String NAME = "TaintToleration";
  private static final Set<String> BLOCKING = Set.of("NoSchedule", "NoExecute");
  private static final String PREFER_NO_SCHEDULE = "PreferNoSchedule";

  public TaintToleration() {
    super(NAME, EnumSet.of(ClusterEvent.NODE_ADDED, ClusterEvent.NODE_UPDATED));
  }

  @Override
  public Status filter(CycleState state, Pod pod, NodeInfo node) {
    List<Taint> taints = node.node().getSpec() == null ? null : node.node().getSpec().getTaints();
    List<Toleration> tolerations = pod.getSpec().getTolerations();
    Optional<Taint> untolerated =
        taints == null
            ? Optional.empty()
            : taints.stream()
                .filter(taint -> BLOCKING.contains(taint.getEffect()))
                .filter(taint -> tolerations.stream().noneMatch(t -> tolerates(t, taint)))
                .findFirst();
    return untolerated
        .map(
            taint ->
                Status.unresolvable(
                    "node(s) had untolerated taint {"
                        + taint.getKey()
                        + (taint.getValue() == null ? "" : ": " + taint.getValue())
                        + "}"))
        .orElse(Status.SUCCESS);
  }

  /** Untolerated PreferNoSchedule taints; fewer is better, so normalising reverses. */
  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    List<Taint> taints = node.node().getSpec() == null ? null : node.node().getSpec().getTaints();
    if (taints == null) {
      return 0;
    }
    List<Toleration> tolerations = pod.getSpec().getTolerations();
    return taints.stream()
        .filter(taint -> PREFER_NO_SCHEDULE.equals(taint.getEffect()))
        .filter(taint -> tolerations.stream().noneMatch(t -> tolerates(t, taint)))
        .count();
  }

  @Override
  public void normalize(long[] scores) {
    ScorePlugin.scaleToMax(scores, true);
  }

  static boolean tolerates(Toleration toleration, Taint taint) {
    String effect = toleration.getEffect();
    if (effect != null && !effect.isEmpty() && !effect.equals(taint.getEffect())) {
      return false;
    }
    String key = toleration.getKey();
    if (key == null || key.isEmpty()) {
      return "Exists".equals(toleration.getOperator());
    }
    if (!key.equals(taint.getKey())) {
      return false;
    }
    return "Exists".equals(toleration.getOperator())
        || nullToEmpty(toleration.getValue()).equals(nullToEmpty(taint.getValue()));
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
