package io.koord4j.queue.core;

import io.koord4j.quota.InvalidQuotaTreeException;
import io.koord4j.quota.QuotaLedger;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.QuotaTree;
import io.koord4j.quota.ResourceVector;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

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
 *
 * <p>A quota removed while units admitted under it still run is <em>retired</em> rather than
 * dropped: it stays in the tree with nothing of its own (min and max zero), so what its units use
 * is still charged to its ancestors, and no unit is admitted to it. It leaves the tree once it
 * holds no admitted unit ({@link #pruneRetired}).
 */
final class QuotaAccounting {

  private final Map<String, QuotaSpec> specs = new HashMap<>();
  /** Removed quotas kept for the units admitted under them, by name; also in {@link #specs}. */
  private final Map<String, QuotaSpec> retired = new HashMap<>();
  private final Map<String, ChargedPod> pods = new HashMap<>();
  private ResourceVector clusterTotal = ResourceVector.EMPTY;
  private QuotaTree tree = QuotaTree.of(List.of());
  private QuotaLedger ledger = new QuotaLedger(tree);
  private List<String> violations = List.of();
  private boolean specsChanged;

  void upsert(QuotaSpec spec) {
    retired.remove(spec.name());
    specsChanged |= !spec.equals(specs.put(spec.name(), spec));
  }

  /** @param holding the leaves that hold admitted units */
  void remove(String quota, Set<String> holding) {
    if (specs.containsKey(quota) && !retired.containsKey(quota)) {
      List<QuotaSpec> rest =
          specs.values().stream()
              .filter(spec -> !spec.name().equals(quota) && !retired.containsKey(spec.name()))
              .toList();
      replaceAll(rest, holding);
    }
  }

  /**
   * Replaces every spec; a quota left out is retired if a leaf in {@code holding} is it or lies
   * under it.
   */
  void replaceAll(Collection<QuotaSpec> all, Set<String> holding) {
    Map<String, QuotaSpec> before = new HashMap<>(specs);
    specs.clear();
    retired.clear();
    all.forEach(spec -> specs.put(spec.name(), spec));
    Deque<String> needed = new ArrayDeque<>(holding);
    while (!needed.isEmpty()) {
      QuotaSpec gone = before.get(needed.pop());
      if (gone != null && !specs.containsKey(gone.name())) {
        QuotaSpec kept = retire(gone);
        specs.put(kept.name(), kept);
        retired.put(kept.name(), kept);
        if (!kept.parent().isEmpty()) {
          needed.push(kept.parent());
        }
      }
    }
    specsChanged = true;
  }

  /** Drops the retired quotas that no longer hold admitted units, directly or below them. */
  void pruneRetired(Set<String> holding) {
    if (!retired.isEmpty()) {
      List<QuotaSpec> live =
          specs.values().stream().filter(spec -> !retired.containsKey(spec.name())).toList();
      Map<String, QuotaSpec> before = Map.copyOf(retired);
      boolean changedBefore = specsChanged;
      replaceAll(live, holding);
      specsChanged = changedBefore || !before.equals(retired);
    }
  }

  /** The top quota of {@code quota}'s tree (itself when top-level or unknown). */
  String treeOf(String quota) {
    String top = quota;
    while (tree.contains(top) && !QuotaTree.ROOT.equals(top) && !QuotaTree.ROOT.equals(tree.parentOf(top))) {
      top = tree.parentOf(top);
    }
    return top;
  }

  boolean isRetired(String quota) {
    return retired.containsKey(quota);
  }

  private static QuotaSpec retire(QuotaSpec spec) {
    Map<String, Long> zero = new HashMap<>();
    spec.max().resourceNames().forEach(resource -> zero.put(resource, 0L));
    ResourceVector none = ResourceVector.of(zero);
    return new QuotaSpec(
        spec.name(), spec.parent(), none, none, none, null, true, spec.isParent(), null);
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
    if (pod == null || specsChanged || !isLeaf(pod.quota())) {
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

  /** True when units may be admitted to {@code quota}: a leaf of the tree, not retired. */
  boolean isUsable(String quota) {
    return isLeaf(quota) && !retired.containsKey(quota);
  }

  private boolean isLeaf(String quota) {
    return tree.contains(quota) && tree.isLeaf(quota);
  }

  void count(QueuedUnit unit) {
    book(unit, ledger::addPending, ledger::addUsed);
  }

  void uncount(QueuedUnit unit) {
    book(unit, ledger::removePending, ledger::removeUsed);
  }

  /**
   * Books the unit's request as pending while it waits, as used once it is admitted. A unit that
   * may not charge its quota is no demand of it: another namespace's waiting work would otherwise
   * raise that quota's runtime share at its siblings' cost.
   */
  private void book(
      QueuedUnit unit,
      BiConsumer<String, ResourceVector> pending,
      BiConsumer<String, ResourceVector> used) {
    if (isCounted(unit)) {
      if (unit.isWaiting() && unit.spec.mayChargeQuota()) {
        pending.accept(unit.quota(), unit.spec.request());
      } else if (unit.phase == UnitPhase.ADMITTED) {
        used.accept(unit.quota(), unit.spec.request());
      }
    }
  }

  /**
   * Moves a waiting unit's request from demand to used without changing the runtime quotas. One
   * that was no demand (the cluster shows it admitted before its quota was unbound) is used alone.
   */
  void admit(QueuedUnit unit) {
    if (!isCounted(unit)) {
      return;
    }
    if (unit.spec.mayChargeQuota()) {
      ledger.admit(unit.quota(), unit.spec.request());
    } else {
      ledger.addUsed(unit.quota(), unit.spec.request());
    }
  }

  private boolean isCounted(QueuedUnit unit) {
    return !specsChanged && isLeaf(unit.quota());
  }
}
