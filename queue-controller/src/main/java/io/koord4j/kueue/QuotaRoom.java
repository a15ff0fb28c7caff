package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.kueue.WorkloadPodSet;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.AdmissionResult;
import io.koord4j.quota.QuotaLedger;
import io.koord4j.quota.QuotaTree;
import io.koord4j.quota.ResourceVector;
import io.koord4j.quota.kube.ElasticQuotaSpecs;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Koordinator elastic-quota room for gangs whose pods name a quota: the runtime quota of the tree
 * (borrowing and lending, {@link QuotaLedger}) over the cluster's allocatable, with what the
 * quota's bound pods request counted as used. One decision pass owns it: gangs let through take
 * their room with {@link #take}, so that two are never let through on the same room.
 */
final class QuotaRoom {
  /** For gangs whose quota koord4j's own queues reserved already: no quota refuses them. */
  static final QuotaRoom UNCHECKED = new QuotaRoom(QuotaTree.of(List.of()), null, false);

  private final QuotaTree tree;
  private final QuotaLedger ledger;
  private final String treeProblem;
  private final boolean checked;

  private QuotaRoom(QuotaTree tree, String treeProblem, boolean checked) {
    this.tree = tree;
    this.ledger = new QuotaLedger(tree);
    this.treeProblem = treeProblem;
    this.checked = checked;
  }

  /** A tree that cannot be built (invalid specs or quantities) leaves every quota Pending with why. */
  static QuotaRoom of(Collection<ElasticQuota> quotas, List<Node> nodes, List<Pod> pods) {
    QuotaRoom room;
    try {
      room = new QuotaRoom(QuotaTree.of(ElasticQuotaSpecs.belowRoot(quotas)), null, true);
    } catch (IllegalArgumentException e) {
      room = new QuotaRoom(QuotaTree.of(List.of()), "the ElasticQuota tree is invalid: " + e.getMessage(), true);
    }
    room.ledger.setClusterTotal(nodes.stream()
        .map(node -> node.getStatus() == null ? null : node.getStatus().getAllocatable())
        .map(ResourceQuantities::toVector)
        .reduce(ResourceVector.EMPTY, ResourceVector::add));
    for (Pod pod : pods) {
      String quota = label(pod.getMetadata().getLabels());
      if (quota != null && room.isLeaf(quota) && ClusterSnapshot.isBoundAndHolding(pod)) {
        room.ledger.addUsed(quota, ResourceQuantities.requestOf(pod));
      }
    }
    return room;
  }

  /** The quota a workload's pods are charged to: its own label, else its pod templates'. */
  static Optional<String> quotaOf(Workload workload) {
    Stream<Map<String, String>> templates = workload.getSpec() == null || workload.getSpec().getPodSets() == null
        ? Stream.of()
        : workload.getSpec().getPodSets().stream()
            .map(WorkloadPodSet::getTemplate)
            .filter(template -> template != null && template.getMetadata() != null)
            .map(template -> template.getMetadata().getLabels());
    return Stream.concat(Stream.of(workload.getMetadata().getLabels()), templates)
        .map(QuotaRoom::label)
        .filter(quota -> quota != null && !quota.isBlank())
        .findFirst();
  }

  /**
   * Why {@code request} cannot be charged to {@code quota} now (Pending) or ever (Rejected: more
   * than the max of the quota or of an ancestor); empty when it fits.
   */
  Optional<GangVerdict> refusal(String quota, ResourceVector request) {
    if (!checked) {
      return Optional.empty();
    }
    if (treeProblem != null) {
      return Optional.of(GangVerdict.waiting(treeProblem));
    }
    if (!isLeaf(quota)) {
      return Optional.of(GangVerdict.waiting("quota \"" + quota + "\" does not exist or is a parent quota"));
    }
    Optional<GangVerdict> overMax = overMax(quota, request);
    if (overMax.isPresent()) {
      return overMax;
    }
    ledger.addPending(quota, request);
    AdmissionResult result = ledger.canAdmit(quota, request);
    ledger.removePending(quota, request);
    return result.admissible() ? Optional.empty() : Optional.of(GangVerdict.waiting(result.message()));
  }

  /** Counts a gang let through as using its quota. */
  void take(String quota, ResourceVector request) {
    if (checked && treeProblem == null && isLeaf(quota)) {
      ledger.addUsed(quota, request);
    }
  }

  private Optional<GangVerdict> overMax(String leaf, ResourceVector request) {
    for (String quota = leaf; !QuotaTree.ROOT.equals(quota); quota = tree.parentOf(quota)) {
      ResourceVector max = tree.spec(quota).max();
      for (String resource : max.resourceNames()) {
        if (request.get(resource) > max.get(resource)) {
          return Optional.of(GangVerdict.rejected("the gang asks more than quota \"" + quota + "\" may ever hold: "
              + ResourceQuantities.format(resource, request.get(resource)) + " of " + resource + " requested, max "
              + ResourceQuantities.format(resource, max.get(resource))));
        }
      }
    }
    return Optional.empty();
  }

  private boolean isLeaf(String quota) {
    return tree.contains(quota) && tree.isLeaf(quota);
  }

  private static String label(Map<String, String> labels) {
    return labels == null ? null : labels.get(WellKnown.QUOTA_NAME);
  }
}
