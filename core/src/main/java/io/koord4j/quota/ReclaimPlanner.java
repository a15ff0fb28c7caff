package io.koord4j.quota;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Chooses which borrowers' units to preempt when a lender's demand returns.
 *
 * <p>The lender's returned request must already be counted as pending in the ledger, so that the
 * runtime quotas have moved back towards the lender and the borrowers now use more than their
 * runtime. The planner then repeatedly takes the quota and resource that still block the lender
 * and preempts the next candidate, in order of lowest priority, then latest admission, then id,
 * whose leaf lies under the blocking quota, requests that resource and still uses more of it than
 * its runtime (it holds borrowed quota). It stops as soon as the lender fits. If it runs out of
 * candidates first, preempting would not help, and it proposes no victims at all.
 */
public final class ReclaimPlanner {

  private static final Comparator<AdmittedUnit> PREEMPTION_ORDER =
      Comparator.comparingInt(AdmittedUnit::priority)
          .thenComparing(AdmittedUnit::admittedAt, Comparator.reverseOrder())
          .thenComparing(AdmittedUnit::id);

  private ReclaimPlanner() {}

  /**
   * @param ledger current accounting; read only
   * @param lender the leaf whose demand returned
   * @param request the lender's unit that should fit
   * @param admitted reclaim candidates; units of the lender itself are never chosen
   */
  public static ReclaimPlan plan(
      QuotaLedger ledger,
      String lender,
      ResourceVector request,
      Collection<AdmittedUnit> admitted) {
    QuotaTree tree = ledger.tree();
    int lenderIndex = ledger.leafIndex(lender);
    long[] wanted = ledger.nonNegative(lender, request);
    long[][] used = ledger.usedCopy();
    List<AdmittedUnit> candidates =
        admitted.stream()
            .filter(unit -> !unit.quota().equals(lender))
            .sorted(PREEMPTION_ORDER)
            .toList();
    boolean[] taken = new boolean[candidates.size()];
    List<AdmittedUnit> victims = new ArrayList<>();

    AdmissionResult outcome = ledger.check(lenderIndex, wanted, used);
    while (!outcome.admissible()) {
      int blocking = tree.indexOf(outcome.quota());
      int r = tree.resourceIndex(outcome.resource());
      int next = -1;
      for (int i = 0; i < candidates.size() && next < 0; i++) {
        AdmittedUnit unit = candidates.get(i);
        int q = ledger.leafIndex(unit.quota());
        if (!taken[i]
            && tree.isWithin(q, blocking)
            && unit.request().get(outcome.resource()) > 0
            && overRuntime(ledger, used, q, r)) {
          next = i;
        }
      }
      if (next < 0) {
        return new ReclaimPlan(List.of(), outcome);
      }
      taken[next] = true;
      AdmittedUnit victim = candidates.get(next);
      victims.add(victim);
      ledger.addUpTree(
          used,
          ledger.leafIndex(victim.quota()),
          ledger.nonNegative(victim.quota(), victim.request()),
          -1);
      outcome = ledger.check(lenderIndex, wanted, used);
    }
    return new ReclaimPlan(victims, outcome);
  }

  /** A leaf that does not govern the resource has no share of it, so all its use is borrowed. */
  private static boolean overRuntime(QuotaLedger ledger, long[][] used, int q, int r) {
    return !ledger.tree().governs[q][r] || used[q][r] > ledger.runtimeAt(q, r);
  }
}
