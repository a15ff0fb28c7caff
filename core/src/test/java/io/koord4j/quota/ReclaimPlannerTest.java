package io.koord4j.quota;

import static io.koord4j.quota.RuntimeQuotaTest.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * team-a borrows from its idle sibling team-b under org (min = max = 100 cpu); then team-b's
 * demand returns and team-a must give back what it borrowed.
 */
class ReclaimPlannerTest {

  private static QuotaLedger org(QuotaSpec... teams) {
    List<QuotaSpec> specs = new ArrayList<>(List.of(teams));
    specs.add(QuotaSpec.group("org", "", cpu(100), cpu(100)));
    QuotaLedger ledger = new QuotaLedger(QuotaTree.of(specs));
    ledger.setClusterTotal(cpu(100));
    return ledger;
  }

  private static QuotaLedger teamsAAndB() {
    return org(
        QuotaSpec.leaf("team-a", "org", cpu(50), cpu(100)),
        QuotaSpec.leaf("team-b", "org", cpu(50), cpu(100)));
  }

  private static AdmittedUnit unit(
      QuotaLedger ledger, String id, String quota, int priority, int admittedAt, long cpu) {
    ledger.addUsed(quota, cpu(cpu));
    return new AdmittedUnit(id, quota, priority, Instant.ofEpochSecond(admittedAt), cpu(cpu));
  }

  private static List<String> ids(ReclaimPlan plan) {
    return plan.victims().stream().map(AdmittedUnit::id).toList();
  }

  @Test
  void preemptsTheLowestPriorityThenMostRecentUnitOnlyAsFarAsNeeded() {
    QuotaLedger ledger = teamsAAndB();
    List<AdmittedUnit> admitted =
        List.of(
            unit(ledger, "a1", "team-a", 0, 1, 30),
            unit(ledger, "a2", "team-a", 0, 2, 30),
            unit(ledger, "a3", "team-a", 5, 0, 20));
    ledger.addPending("team-b", cpu(50));

    ReclaimPlan plan = ReclaimPlanner.plan(ledger, "team-b", cpu(50), admitted);

    // org holds 80 and team-b wants 50 of 100: 30 must go, a2 alone frees it.
    assertThat(ids(plan)).containsExactly("a2");
    assertThat(plan.lenderFits()).isTrue();
  }

  @Test
  void takesSeveralUnitsInPreemptionOrderWhenOneIsNotEnough() {
    QuotaLedger ledger = teamsAAndB();
    List<AdmittedUnit> admitted =
        List.of(
            unit(ledger, "a1", "team-a", 0, 1, 20),
            unit(ledger, "a2", "team-a", 0, 2, 20),
            unit(ledger, "a3", "team-a", 1, 0, 20),
            unit(ledger, "a4", "team-a", 2, 0, 20));
    ledger.addPending("team-b", cpu(50));

    ReclaimPlan plan = ReclaimPlanner.plan(ledger, "team-b", cpu(50), admitted);

    assertThat(ids(plan)).containsExactly("a2", "a1");
    assertThat(plan.lenderFits()).isTrue();
  }

  @Test
  void leavesAloneQuotasThatUseNoMoreThanTheirRuntime() {
    QuotaLedger ledger =
        org(
            QuotaSpec.leaf("team-a", "org", cpu(50), cpu(100)),
            QuotaSpec.leaf("team-b", "org", cpu(30), cpu(100)),
            QuotaSpec.leaf("team-c", "org", cpu(20), cpu(100)));
    List<AdmittedUnit> admitted =
        List.of(
            unit(ledger, "c1", "team-c", -10, 5, 20),
            unit(ledger, "a1", "team-a", 0, 1, 30),
            unit(ledger, "a2", "team-a", 0, 2, 30));
    ledger.addPending("team-b", cpu(30));

    ReclaimPlan plan = ReclaimPlanner.plan(ledger, "team-b", cpu(30), admitted);

    // team-c is within its 20; team-a holds 60 of a runtime of 50.
    assertThat(ledger.runtime("team-a")).isEqualTo(cpu(50));
    assertThat(ids(plan)).containsExactly("a2");
  }

  @Test
  void proposesNothingWhenPreemptionCannotMakeTheRequestFit() {
    QuotaLedger ledger = teamsAAndB();
    List<AdmittedUnit> admitted =
        List.of(
            unit(ledger, "a1", "team-a", 0, 1, 40),
            unit(ledger, "a2", "team-a", 0, 2, 40),
            unit(ledger, "b1", "team-b", -1, 3, 0));
    ledger.addPending("team-b", cpu(60));

    ReclaimPlan plan = ReclaimPlanner.plan(ledger, "team-b", cpu(60), admitted);

    // Both are hungry, so each gets its min 50: team-b itself cannot hold 60.
    assertThat(plan.victims()).isEmpty();
    assertThat(plan.outcome()).isEqualTo(new AdmissionResult(false, "team-b", "cpu", 60, 50));
  }
}
