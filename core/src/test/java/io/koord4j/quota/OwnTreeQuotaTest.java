package io.koord4j.quota;

import static io.koord4j.quota.RuntimeQuotaTest.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Quota trees of their own, as Koordinator builds one per ElasticQuotaProfile: each splits its
 * own total, and the default tree splits the cluster's total less theirs.
 */
class OwnTreeQuotaTest {
  private static final long UNBOUNDED = Long.MAX_VALUE / 5;

  /** Cluster of 10 CPUs: tree A holds 4 of them, tree B 3, the default tree the other 3. */
  private static QuotaLedger ledger() {
    QuotaLedger ledger =
        new QuotaLedger(
            QuotaTree.of(
                List.of(
                    QuotaSpec.group("a-root", "", cpu(4_000), cpu(UNBOUNDED)).withTreeTotal(cpu(4_000)),
                    QuotaSpec.leaf("a-team", "a-root", cpu(0), cpu(UNBOUNDED)),
                    QuotaSpec.group("b-root", "", cpu(3_000), cpu(UNBOUNDED)).withTreeTotal(cpu(3_000)),
                    QuotaSpec.leaf("b-team", "b-root", cpu(0), cpu(UNBOUNDED)),
                    QuotaSpec.leaf("default-team", "", cpu(0), cpu(UNBOUNDED)))));
    ledger.setClusterTotal(cpu(10_000));
    return ledger;
  }

  @Test
  void aBorrowerInOneTreeCannotTakeAnotherTreesIdleQuota() {
    QuotaLedger ledger = ledger();
    ledger.addPending("a-team", cpu(8_000));

    assertThat(ledger.runtime("a-root").get("cpu")).isEqualTo(4_000);
    assertThat(ledger.runtime("a-team").get("cpu")).isEqualTo(4_000);
    assertThat(ledger.canAdmit("a-team", cpu(4_000)).admissible()).isTrue();
    AdmissionResult tooMuch = ledger.canAdmit("a-team", cpu(4_001));
    assertThat(tooMuch.admissible()).isFalse();
    assertThat(ledger.fitsIdle("a-team", cpu(4_001))).isFalse();
    assertThat(ledger.fitsIdle("a-team", cpu(4_000))).isTrue();
  }

  @Test
  void theDefaultTreeSharesTheClusterLessTheOtherTreesTotals() {
    QuotaLedger ledger = ledger();
    ledger.addPending("default-team", cpu(10_000));

    assertThat(ledger.runtime(QuotaTree.ROOT).get("cpu")).isEqualTo(3_000);
    assertThat(ledger.runtime("default-team").get("cpu")).isEqualTo(3_000);
    assertThat(ledger.canAdmit("default-team", cpu(3_001)).admissible()).isFalse();
    assertThat(ledger.fitsIdle("default-team", cpu(3_001))).isFalse();
  }

  @Test
  void theTreesSplitIndependently() {
    QuotaLedger ledger = ledger();
    ledger.addUsed("b-team", cpu(3_000));
    ledger.addPending("a-team", cpu(2_000));
    ledger.addPending("default-team", cpu(2_000));

    assertThat(ledger.runtime("a-team").get("cpu")).isEqualTo(2_000);
    assertThat(ledger.runtime("a-root").get("cpu")).isEqualTo(2_000);
    assertThat(ledger.runtime("b-team").get("cpu")).isEqualTo(3_000);
    assertThat(ledger.runtime("default-team").get("cpu")).isEqualTo(2_000);
    assertThat(ledger.canAdmit("a-team", cpu(2_000)).admissible()).isTrue();
    assertThat(ledger.canAdmit("default-team", cpu(2_000)).admissible()).isTrue();
    // What tree B uses stops at its root: the default tree's root does not count it.
    assertThat(ledger.used(QuotaTree.ROOT).get("cpu")).isZero();
    assertThat(ledger.used("b-root").get("cpu")).isEqualTo(3_000);
  }

  @Test
  void reclaimForTheDefaultTreeNeverPreemptsAnotherTreesUnits() {
    QuotaLedger ledger =
        new QuotaLedger(
            QuotaTree.of(
                List.of(
                    QuotaSpec.group("a-root", "", cpu(4_000), cpu(UNBOUNDED)).withTreeTotal(cpu(4_000)),
                    QuotaSpec.leaf("a1", "a-root", cpu(2_000), cpu(UNBOUNDED)),
                    QuotaSpec.leaf("a2", "a-root", cpu(2_000), cpu(UNBOUNDED)),
                    QuotaSpec.leaf("d1", "", cpu(0), cpu(UNBOUNDED)),
                    QuotaSpec.leaf("d2", "", cpu(1_000), cpu(UNBOUNDED)))));
    ledger.setClusterTotal(cpu(7_000));
    ledger.addUsed("a1", cpu(4_000));
    ledger.addPending("a2", cpu(2_000));
    ledger.addUsed("d1", cpu(3_000));
    ledger.addPending("d2", cpu(1_000));
    AdmittedUnit borrowerInTreeA = new AdmittedUnit("a", "a1", 0, Instant.EPOCH, cpu(4_000));
    AdmittedUnit borrowerInDefaultTree = new AdmittedUnit("d", "d1", 1, Instant.EPOCH, cpu(3_000));

    ReclaimPlan plan =
        ReclaimPlanner.plan(ledger, "d2", cpu(1_000), List.of(borrowerInTreeA, borrowerInDefaultTree));

    assertThat(plan.victims()).containsExactly(borrowerInDefaultTree);
    assertThat(plan.lenderFits()).isTrue();
  }

  @Test
  void aTreeWithoutItsTotalSharesNothing() {
    QuotaLedger ledger =
        new QuotaLedger(
            QuotaTree.of(
                List.of(
                    QuotaSpec.group("a-root", "", cpu(0), cpu(UNBOUNDED)).withTreeTotal(ResourceVector.EMPTY),
                    QuotaSpec.leaf("a-team", "a-root", cpu(0), cpu(UNBOUNDED)))));
    ledger.setClusterTotal(cpu(10_000));
    ledger.addPending("a-team", cpu(1_000));

    assertThat(ledger.runtime("a-team").get("cpu")).isZero();
    assertThat(ledger.canAdmit("a-team", cpu(1_000)).admissible()).isFalse();
  }
}
