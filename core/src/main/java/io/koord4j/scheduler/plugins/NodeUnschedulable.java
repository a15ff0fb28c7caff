package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import java.util.EnumSet;

/** Keeps the pod off cordoned nodes unless it tolerates the unschedulable taint. */
public final class NodeUnschedulable extends BasePlugin implements FilterPlugin {

  public static final String NAME = "NodeUnschedulable";
  private static final Taint CORDONED =
      new Taint("NoSchedule", "node.kubernetes.io/unschedulable", null, null);

  public NodeUnschedulable() {
    super(NAME, EnumSet.of(ClusterEvent.NODE_ADDED, ClusterEvent.NODE_UPDATED));
  }

  @Override
  public Status filter(CycleState state, Pod pod, NodeInfo node) {
    if (node.unschedulable()
        && pod.getSpec().getTolerations().stream()
            .noneMatch(t -> TaintToleration.tolerates(t, CORDONED))) {
      return Status.unresolvable("node(s) were unschedulable");
    }
    return Status.SUCCESS;
  }
}
