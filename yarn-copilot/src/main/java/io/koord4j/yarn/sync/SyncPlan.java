package io.koord4j.yarn.sync;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One round of the copilot: which NodeManager totals to push to their ResourceManagers and which
 * node annotations to rewrite. Only changes are planned, so a steady state costs no writes.
 *
 * <p>A NodeManager's total is its node's YARN share, except while Kubernetes batch pods wait for the
 * node: then Kubernetes goes first and YARN keeps only what it uses, so that what its containers
 * free is offered to Kubernetes alone and never to both.
 *
 * @param pushes NodeManagers whose total differs from their node's YARN share
 * @param pulls nodes whose annotation differs from what their NodeManager uses
 */
public record SyncPlan(List<Push> pushes, List<Pull> pulls) {

  /**
   * Set a NodeManager's total in its ResourceManager; {@code lowers} when it takes something away,
   * so that YARN's use must be read again before what it freed is offered to Kubernetes.
   */
  public record Push(String node, NodeManagerId nodeManager, YarnResources total, boolean lowers) {}

  /**
   * Rewrite a node's third-party allocations annotation from {@code previous} (null: absent) to
   * {@code allocations}, which records what YARN uses there.
   */
  public record Pull(String node, YarnResources used, String previous, String allocations) {}

  /**
   * Plans a round.
   *
   * @param nodes every node of the Kubernetes cluster
   * @param reports the NodeManager reports of the ResourceManagers that answered
   * @param answered the YARN clusters whose ResourceManager answered this round; nodes of other
   *     clusters are left as they are until it answers again
   */
  public static SyncPlan plan(
      Collection<NodeView> nodes, Map<NodeManagerId, NodeManagerReport> reports, Set<String> answered) {
    List<Push> pushes = new ArrayList<>();
    List<Pull> pulls = new ArrayList<>();
    for (NodeView node : nodes) {
      if (node.nodeManager().isEmpty()) {
        // The NodeManager left: YARN holds nothing here any more. A node that never had one is not touched.
        if (ThirdPartyAllocations.hasYarn(node.allocations())) {
          pullIfChanged(node, YarnResources.ZERO, pulls);
        }
        continue;
      }
      NodeManagerId id = node.nodeManager().get();
      NodeManagerReport report = reports.get(id);
      if (!answered.contains(id.clusterId()) || report == null) {
        // Unknown (ResourceManager down, or the NodeManager not registered yet): keep the last record.
        continue;
      }
      YarnResources share = YarnResources.of(node.yarnShare());
      YarnResources total = node.batchPodsWaiting() ? share.min(report.used()) : share;
      if (report.running() && !report.total().equals(total)) {
        pushes.add(new Push(node.name(), id, total, total.anyBelow(report.total())));
      }
      pullIfChanged(node, report.used(), pulls);
    }
    return new SyncPlan(List.copyOf(pushes), List.copyOf(pulls));
  }

  /** Whether a push takes resources away from a NodeManager. */
  public boolean lowersAny() {
    return pushes.stream().anyMatch(Push::lowers);
  }

  private static void pullIfChanged(NodeView node, YarnResources used, List<Pull> pulls) {
    String allocations = ThirdPartyAllocations.withYarn(node.allocations(), used);
    if (!Objects.equals(allocations, node.allocations())) {
      pulls.add(new Pull(node.name(), used, node.allocations(), allocations));
    }
  }
}
