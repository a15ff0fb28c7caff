package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeGpus;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import java.util.List;
import java.util.Optional;

/**
 * The scheduler's filters that judge a pod by the node alone, not by what else runs there: cordon
 * ({@link NodeUnschedulable}), taints ({@link TaintToleration}), nodeSelector and required node
 * affinity ({@link NodeAffinity}). Whoever places a gang before the scheduler sees its pods (the
 * gang-feasibility check) asks these same filters, so that it never counts a node the scheduler
 * would refuse.
 */
public final class NodeEligibility {
  private static final List<FilterPlugin> FILTERS =
      List.of(new NodeUnschedulable(), new TaintToleration(), new NodeAffinity());

  private NodeEligibility() {}

  /** Whether the scheduler's node-only filters let a pod with this spec onto the node. */
  public static boolean accepts(PodSpec spec, Node node) {
    return refusal(spec, node).isEmpty();
  }

  /** Why the scheduler's node-only filters keep a pod with this spec off the node; empty if they do not. */
  public static Optional<String> refusal(PodSpec spec, Node node) {
    // The spec as it is, not a copy: the filters only read it, once per node and pass.
    Pod pod = new Pod();
    pod.setMetadata(new ObjectMeta());
    pod.setSpec(spec);
    // These filters read the node object only; its resources are the other filters' business.
    NodeInfo info = new NodeInfo(node, ResourceVector.EMPTY, ResourceVector.EMPTY, ResourceVector.EMPTY, 0, NodeGpus.NONE);
    CycleState state = new CycleState();
    for (FilterPlugin filter : FILTERS) {
      Status status = filter.filter(state, pod, info);
      if (!status.isSuccess()) {
        return Optional.of(filter.name() + ": " + status.message());
      }
    }
    return Optional.empty();
  }
}
