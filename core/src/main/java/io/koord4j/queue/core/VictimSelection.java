package io.koord4j.queue.core;

import io.koord4j.quota.AdmittedUnit;
import io.koord4j.quota.QuotaLedger;
import io.koord4j.quota.ReclaimPlan;
import io.koord4j.quota.ReclaimPlanner;
import io.koord4j.quota.ResourceVector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Which admitted units to preempt so that a pending unit fits. Both ways choose the lowest
 * priority first, then the most recently admitted, and return nothing unless the chosen units
 * together make the pending unit admissible.
 */
final class VictimSelection {

  private static final Comparator<QueuedUnit> PREEMPTION_ORDER =
      Comparator.comparingInt((QueuedUnit u) -> u.spec.priority())
          .thenComparing(u -> u.admittedAt, Comparator.reverseOrder())
          .thenComparing(QueuedUnit::id);

  private VictimSelection() {}

  /**
   * Borrowers under the quota that blocks {@code unit}: units of other leaves that use more than
   * their runtime quota, because they borrowed what {@code unit}'s quota lent.
   */
  static List<String> reclaim(QuotaLedger ledger, QueuedUnit unit, Collection<AdmittedUnit> all) {
    ReclaimPlan plan = ReclaimPlanner.plan(ledger, unit.quota(), unit.spec.request(), all);
    return plan.lenderFits() ? plan.victims().stream().map(AdmittedUnit::id).toList() : List.of();
  }

  /**
   * Strictly lower-priority units of the same queue and quota. Since they share the unit's leaf,
   * evicting them frees the same amount at the leaf and every ancestor, and demand (so runtime)
   * does not change: the unit fits once what is left of its request after the freed amount fits.
   */
  static List<QueuedUnit> lowerPriority(
      QuotaLedger ledger, QueuedUnit unit, Collection<QueuedUnit> candidates) {
    List<QueuedUnit> ordered =
        candidates.stream()
            .filter(v -> v.spec.priority() < unit.spec.priority())
            .sorted(PREEMPTION_ORDER)
            .toList();
    List<QueuedUnit> chosen = new ArrayList<>();
    ResourceVector freed = ResourceVector.EMPTY;
    for (QueuedUnit victim : ordered) {
      chosen.add(victim);
      freed = freed.add(victim.spec.request());
      ResourceVector rest = unit.spec.request().subtract(freed).max(ResourceVector.EMPTY);
      if (ledger.canAdmit(unit.quota(), rest).admissible()) {
        return chosen;
      }
    }
    return List.of();
  }
}
