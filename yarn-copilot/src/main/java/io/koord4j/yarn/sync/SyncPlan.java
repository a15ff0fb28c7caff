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
 * node: then Kubernetes goes first and YARN keeps only what it uses. Whatever YARN may hold is
 * recorded on the node before YARN may take it: a raise is pushed only in a round after the record
 * holds it, and a lowering is recorded only after it is pushed and YARN's use read again. So
 * koord-scheduler, which keeps batch pods out of what the record holds, never offers room YARN may
 * fill.
 *
 * @param pushes NodeManagers whose total is to change
 * @param pulls nodes whose annotation differs from what their NodeManager holds and may hold
 */
public record SyncPlan(List<Push> pushes, List<Pull> pulls) {

  /**
   * Set a NodeManager's total in its ResourceManager; {@code lowers} when it takes something away,
   * so that YARN's use must be read again before what it freed is offered to Kubernetes.
   */
  public record Push(String node, NodeManagerId nodeManager, YarnResources total, boolean lowers) {}

  /**
   * Rewrite a node's third-party allocations annotation from {@code previous} (null: absent) to
   * {@code allocations}, which records what YARN uses there and the room it may still fill.
   */
  public record Pull(String node, YarnResources used, YarnResources reserved, String previous, String allocations) {}

  /**
   * Plans a round.
   *
   * @param nodes every node of the Kubernetes cluster
   * @param reports the NodeManager reports of the ResourceManagers that answered
   * @param answered the YARN clusters whose ResourceManager answered this round; nodes of other
   *     clusters are left as they are until it answers again
   */
  public static SyncPlan plan(
      Collection<NodeView> nodes,
      Map<NodeManagerId, NodeManagerReport> reports,
      Set<String> answered) {
    List<Push> pushes = new ArrayList<>();
    List<Pull> pulls = new ArrayList<>();
    for (NodeView node : nodes) {
      if (node.nodeManager().isEmpty()) {
        // The NodeManager left: YARN holds nothing here any more. A node that never had one is not touched.
        if (ThirdPartyAllocations.hasYarn(node.allocations())) {
          pullIfChanged(node, YarnResources.ZERO, YarnResources.ZERO, pulls);
        }
        continue;
      }
      NodeManagerId id = node.nodeManager().get();
      NodeManagerReport report = reports.get(id);
      if (!answered.contains(id.clusterId()) || report == null) {
        // Unknown (ResourceManager down, or the NodeManager not registered yet): keep the last record.
        continue;
      }
      plan(node, report, pushes, pulls);
    }
    return new SyncPlan(List.copyOf(pushes), List.copyOf(pulls));
  }

  private static void plan(
      NodeView node, NodeManagerReport report, List<Push> pushes, List<Pull> pulls) {
    YarnResources share = YarnResources.of(node.yarnShare());
    YarnResources wanted = node.batchPodsWaiting() ? share.min(report.used()) : share;
    YarnResources total = raiseTakenFromKubernetes(node, wanted) ? wanted : wanted.min(report.total());
    if (!report.running()) {
      // Not RUNNING: the ResourceManager takes no new total and places no new container there.
      pullIfChanged(node, report.used(), YarnResources.ZERO, pulls);
      return;
    }
    if (!report.total().equals(total)) {
      pushes.add(new Push(node.name(), report.id(), total, total.anyBelow(report.total())));
    }
    YarnResources mayHold = report.total().max(report.used()).max(wanted);
    pullIfChanged(node, report.used(), mayHold.minus(report.used()), pulls);
  }

  /**
   * Whether YARN may be given {@code wanted}: the node's record already holds it for YARN, so that
   * koord-scheduler, which reads the record, places no batch pod into it.
   */
  private static boolean raiseTakenFromKubernetes(NodeView node, YarnResources wanted) {
    return wanted.toBatch().fitsIn(ThirdPartyAllocations.yarnHeld(node.allocations()));
  }

  /** Whether a push takes resources away from a NodeManager. */
  public boolean lowersAny() {
    return pushes.stream().anyMatch(Push::lowers);
  }

  private static void pullIfChanged(NodeView node, YarnResources used, YarnResources reserved, List<Pull> pulls) {
    String allocations = ThirdPartyAllocations.withYarn(node.allocations(), used, reserved);
    if (!Objects.equals(allocations, node.allocations())) {
      pulls.add(new Pull(node.name(), used, reserved, node.allocations(), allocations));
    }
  }
}
