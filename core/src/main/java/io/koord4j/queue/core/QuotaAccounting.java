package io.koord4j.queue.core;

import io.koord4j.quota.InvalidQuotaTreeException;
import io.koord4j.quota.QuotaLedger;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.QuotaTree;
import io.koord4j.quota.ResourceVector;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the quota ledger in step with the units: pending and backing-off units count as demand,
 * admitted units as used, at their leaf quota. Pods that no unit owns are charged the same way:
 * pending pods as demand, placed pods as used.
 *
 * <p>Quota specs arrive one informer event at a time, possibly children before parents, so a
 * spec change only marks the tree stale; {@link #refresh} rebuilds it once, recounting every
 * unit, before the next pass or query. Until then unit changes skip the ledger, since the
 * rebuild counts them anyway. If the specs do not form a valid tree the last valid tree stays
 * in force and {@link #violations} says why.
 */
final class QuotaAccounting {

  private final Map<String, QuotaSpec> specs = new HashMap<>();
  private final Map<String, ChargedPod> pods = new HashMap<>();
  private ResourceVector clusterTotal = ResourceVector.EMPTY;
  private QuotaTree tree = QuotaTree.of(List.of());
  private QuotaLedger ledger = new QuotaLedger(tree);
  private List<String> violations = List.of();
  private boolean specsChanged;

  void upsert(QuotaSpec spec) {
    specsChanged |= !spec.equals(specs.put(spec.name(), spec));
  }

  void remove(String quota) {
    specsChanged |= specs.remove(quota) != null;
  }

  void replaceAll(Collection<QuotaSpec> all) {
    specs.clear();
    all.forEach(spec -> specs.put(spec.name(), spec));
    specsChanged = true;
  }

  void setClusterTotal(ResourceVector total) {
    clusterTotal = total;
    ledger.setClusterTotal(total);
  }

  List<String> violations() {
    return violations;
  }

  /** Rebuilds the tree and the ledger if the specs changed since the last time. */
  void refresh(Collection<QueuedUnit> units) {
    if (!specsChanged) {
      return;
    }
    specsChanged = false;
    try {
      tree = QuotaTree.of(specs.values());
      violations = List.of();
    } catch (InvalidQuotaTreeException e) {
      violations = QuotaTree.violations(specs.values());
    }
    ledger = new QuotaLedger(tree);
    ledger.setClusterTotal(clusterTotal);
    units.forEach(this::count);
    pods.values().forEach(pod -> chargePod(pod, 1));
  }

  /**
   * Charges a pod no unit owns, replacing what was charged for it before.
   *
   * @return whether the charge changed
   */
  boolean upsertPod(String uid, ChargedPod pod) {
    ChargedPod before = pods.put(uid, pod);
    if (pod.equals(before)) {
      return false;
    }
    chargePod(before, -1);
    chargePod(pod, 1);
    return true;
  }

  /** @return whether the pod was charged */
  boolean removePod(String uid) {
    ChargedPod before = pods.remove(uid);
    chargePod(before, -1);
    return before != null;
  }

  private void chargePod(ChargedPod pod, int sign) {
    if (pod == null || specsChanged || !isUsable(pod.quota())) {
      return;
    }
    if (pod.placed()) {
      if (sign > 0) {
        ledger.addUsed(pod.quota(), pod.request());
      } else {
        ledger.removeUsed(pod.quota(), pod.request());
      }
    } else if (sign > 0) {
      ledger.addPending(pod.quota(), pod.request());
    } else {
      ledger.removePending(pod.quota(), pod.request());
    }
  }

  /** The ledger of the current tree; call {@link #refresh} first. */
  QuotaLedger ledger() {
    return ledger;
  }

  /** True when units of {@code quota} are counted: it exists and is a leaf. */
  boolean isUsable(String quota) {
    return tree.contains(quota) && tree.isLeaf(quota);
  }

  void count(QueuedUnit unit) {
    if (isCounted(unit)) {
      if (unit.isWaiting()) {
        ledger.addPending(unit.quota(), unit.spec.request());
      } else if (unit.phase == UnitPhase.ADMITTED) {
        ledger.addUsed(unit.quota(), unit.spec.request());
      }
    }
  }

  void uncount(QueuedUnit unit) {
    if (isCounted(unit)) {
      if (unit.isWaiting()) {
        ledger.removePending(unit.quota(), unit.spec.request());
      } else if (unit.phase == UnitPhase.ADMITTED) {
        ledger.removeUsed(unit.quota(), unit.spec.request());
      }
    }
  }

  /** Moves a waiting unit's request from demand to used without changing the runtime quotas. */
  void admit(QueuedUnit unit) {
    if (isCounted(unit)) {
      ledger.admit(unit.quota(), unit.spec.request());
    }
  }

  private boolean isCounted(QueuedUnit unit) {
    return !specsChanged && isUsable(unit.quota());
  }
}
