package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.Node;
import io.koord4j.api.device.Device;
import io.koord4j.api.kueue.Workload;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a gang could ever be placed on the cluster's nodes, judged as the gang-feasibility
 * check judges it (the scheduler's node filters, then room for every pod) but on the nodes with
 * nothing running. The admission loop asks it before it admits a unit, so that the queue, the
 * check and the scheduler share one truth of what fits a node.
 */
public final class EmptyNodesFit {
  private final ClusterSnapshot cluster;

  private EmptyNodesFit(ClusterSnapshot cluster) {
    this.cluster = cluster;
  }

  /** @param devices the nodes' Device objects by node name */
  public static EmptyNodesFit of(List<Node> nodes, Map<String, Device> devices) {
    return new EmptyNodesFit(ClusterSnapshot.of(nodes, List.of(), devices));
  }

  /**
   * Whether some node accepts pods (Ready, not cordoned). Without one there is nothing to judge
   * by: the nodes of a cluster that scales from zero, or that are all late to report, are not
   * there yet.
   */
  public boolean hasNodes() {
    return cluster.hasNodes();
  }

  /** Why the workload's pods cannot all be placed even on empty nodes; empty when they can. */
  public Optional<String> neverFits(Workload workload) {
    WorkloadGang gang;
    try {
      gang = WorkloadGang.of(workload);
    } catch (IllegalArgumentException e) {
      return Optional.of("the pods can never be placed: " + e.getMessage());
    }
    return GangFit.neverFits(cluster, gang);
  }
}
