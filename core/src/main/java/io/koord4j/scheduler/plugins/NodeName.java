package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import java.util.EnumSet;

/** A pod that names its node ({@code spec.nodeName}) fits that node only. */
public final class NodeName extends BasePlugin implements FilterPlugin {

  public static final String NAME = "NodeName";
  static final String REASON = "node(s) didn't match the requested node name";

  public NodeName() {
    super(NAME, EnumSet.of(ClusterEvent.NODE_ADDED));
  }

  @Override
  public Status filter(CycleState state, Pod pod, NodeInfo node) {
    String wanted = pod.getSpec().getNodeName();
    return wanted == null || wanted.isEmpty() || wanted.equals(node.name())
        ? Status.SUCCESS
        : Status.unresolvable(REASON);
  }
}
