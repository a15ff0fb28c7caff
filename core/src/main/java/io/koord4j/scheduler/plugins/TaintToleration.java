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
    List<Toleration> tolerations = pod.getSpec().getTolerations();
    for (Taint taint : node.taints()) {
      if (BLOCKING.contains(taint.getEffect()) && !toleratedBy(tolerations, taint)) {
        return Status.unresolvable(
            "node(s) had untolerated taint {"
                + taint.getKey()
                + (taint.getValue() == null ? "" : ": " + taint.getValue())
                + "}");
      }
    }
    return Status.SUCCESS;
  }

  /** Untolerated PreferNoSchedule taints; fewer is better, so normalising reverses. */
  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    List<Toleration> tolerations = pod.getSpec().getTolerations();
    long untolerated = 0;
    for (Taint taint : node.taints()) {
      if (PREFER_NO_SCHEDULE.equals(taint.getEffect()) && !toleratedBy(tolerations, taint)) {
        untolerated++;
      }
    }
    return untolerated;
  }

  /** Loops rather than streams: this runs for every node a pod is filtered or scored on. */
  private static boolean toleratedBy(List<Toleration> tolerations, Taint taint) {
    for (Toleration toleration : tolerations) {
      if (tolerates(toleration, taint)) {
        return true;
      }
    }
    return false;
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
