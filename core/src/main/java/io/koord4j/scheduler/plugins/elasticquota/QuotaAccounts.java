package io.koord4j.scheduler.plugins.elasticquota;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.AdmissionResult;
import io.koord4j.quota.QuotaLedger;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.QuotaTree;
import io.koord4j.quota.ResourceVector;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which quota each pod is charged to and how: pending pods count as the quota's demand, placed
 * (assumed or bound) pods as used. Runtime quota and the admission check come from the shared
 * {@link QuotaLedger}; this class only keeps per-pod bookkeeping so nothing is counted twice.
 * Thread-safe: the scheduling cycle and informer threads both update it.
 */
public final class QuotaAccounts {

  /** @param quota the leaf quota charged, or null when the pod's quota does not exist (yet) */
  private record Account(Pod pod, String quota, ResourceVector request, boolean used) {}

  private final Map<String, Account> accounts = new HashMap<>();
  private QuotaTree tree = QuotaTree.of(List.of());
  private QuotaLedger ledger = new QuotaLedger(tree);
  private Map<String, String> quotaByNamespace = Map.of();
  private ResourceVector clusterTotal = ResourceVector.EMPTY;

  /**
   * Replaces the quota tree and re-charges every pod to its quota in the new tree.
   *
   * @param namespaceBindings namespace to quota, from the quotas' {@code namespaces} annotations
   * @throws io.koord4j.quota.InvalidQuotaTreeException if the specs break a tree rule; the old
   *     tree stays
   */
  public synchronized void setQuotas(
      Collection<QuotaSpec> specs, Map<String, String> namespaceBindings) {
    tree = QuotaTree.of(specs);
    ledger = new QuotaLedger(tree);
    ledger.setClusterTotal(clusterTotal);
    quotaByNamespace = Map.copyOf(namespaceBindings);
    List<Account> old = List.copyOf(accounts.values());
    accounts.clear();
    old.forEach(account -> charge(account.pod(), account.request(), account.used()));
  }

  /** What the root quota shares: the allocatable of all nodes. */
  public synchronized void setClusterTotal(ResourceVector total) {
    clusterTotal = total;
    ledger.setClusterTotal(total);
  }

  /** The informer's view of a non-terminal pod: a pod seen bound is charged as used. */
  public synchronized void podSeen(Pod pod) {
    String uid = pod.getMetadata().getUid();
    boolean bound = pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
    Account account = accounts.get(uid);
    if (account == null) {
      charge(pod, ResourceQuantities.requestOf(pod), bound);
    } else if (bound && !account.used()) {
      markUsed(uid, account, true);
    }
  }

  public synchronized void podGone(String uid) {
    Account account = accounts.remove(uid);
    if (account != null && account.quota() != null) {
      if (account.used()) {
        ledger.removeUsed(account.quota(), account.request());
      } else {
        ledger.removePending(account.quota(), account.request());
      }
    }
  }

  /** Whether the pod fits its quota's runtime; pods of no known quota always fit. */
  public synchronized AdmissionResult check(Pod pod) {
    Optional<String> quota = quotaOf(pod);
    if (quota.isEmpty()) {
      return new AdmissionResult(true, null, null, 0, 0);
    }
    if (!tree.isLeaf(quota.get())) {
      throw new IllegalArgumentException(
          "quota \"" + quota.get() + "\" is a parent quota; pods may only use leaf quotas");
    }
    Account account = accounts.get(pod.getMetadata().getUid());
    ResourceVector request =
        account != null ? account.request() : ResourceQuantities.requestOf(pod);
    if (account == null) {
      // Runtime quota is derived from demand, so the pod must count as pending before the check.
      charge(pod, request, false);
    }
    return ledger.canAdmit(quota.get(), request);
  }

  /** The pod is placed: its request moves from the quota's pending to its used. */
  public synchronized void reserve(Pod pod) {
    Account account = accounts.get(pod.getMetadata().getUid());
    if (account != null && !account.used()) {
      markUsed(pod.getMetadata().getUid(), account, true);
    }
  }

  /** The placement was undone: the pod is pending again. */
  public synchronized void unreserve(Pod pod) {
    Account account = accounts.get(pod.getMetadata().getUid());
    if (account != null && account.used()) {
      markUsed(pod.getMetadata().getUid(), account, false);
    }
  }

  public synchronized ResourceVector used(String quota) {
    return ledger.used(quota);
  }

  public synchronized ResourceVector runtime(String quota) {
    return ledger.runtime(quota);
  }

  /**
   * Label {@code quota.scheduling.koordinator.sh/name}; else the quota the pod's queued unit was
   * admitted to ({@code koord4j.io/unit-quota}, which the manager writes on the pods of the gangs it
   * starts), since a namespace may be bound to several quotas; else the quota named like the
   * namespace; else the quota the namespace is bound to; else the default quota. Empty when that
   * quota does not exist: the pod is not governed.
   */
  Optional<String> quotaOf(Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    String label = labels == null ? null : labels.get(WellKnown.QUOTA_NAME);
    String unitQuota = annotations == null ? null : annotations.get(WellKnown.UNIT_QUOTA);
    String namespace = pod.getMetadata().getNamespace();
    String quota;
    if (label != null && !label.isBlank()) {
      quota = label.strip();
    } else if (unitQuota != null && !unitQuota.isBlank()) {
      quota = unitQuota.strip();
    } else if (tree.contains(namespace) && !QuotaTree.ROOT.equals(namespace)) {
      quota = namespace;
    } else {
      quota = quotaByNamespace.getOrDefault(namespace, WellKnown.DEFAULT_QUOTA);
    }
    return tree.contains(quota) ? Optional.of(quota) : Optional.empty();
  }

  /** Tracks every pod, so that a quota created later is charged for the pods it governs. */
  private void charge(Pod pod, ResourceVector request, boolean used) {
    String quota = quotaOf(pod).filter(tree::isLeaf).orElse(null);
    if (quota != null && used) {
      ledger.addUsed(quota, request);
    } else if (quota != null) {
      ledger.addPending(quota, request);
    }
    accounts.put(pod.getMetadata().getUid(), new Account(pod, quota, request, used));
  }

  private void markUsed(String uid, Account account, boolean used) {
    if (account.quota() == null) {
      accounts.put(uid, new Account(account.pod(), null, account.request(), used));
      return;
    }
    if (used) {
      ledger.admit(account.quota(), account.request());
    } else {
      ledger.removeUsed(account.quota(), account.request());
      ledger.addPending(account.quota(), account.request());
    }
    accounts.put(uid, new Account(account.pod(), account.quota(), account.request(), used));
  }
}
