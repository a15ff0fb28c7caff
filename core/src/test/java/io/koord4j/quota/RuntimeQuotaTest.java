package io.koord4j.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Runtime quota on small trees computed by hand, one resource ("cpu", in milli-CPU). */
class RuntimeQuotaTest {

  static ResourceVector cpu(long amount) {
    return ResourceVector.of("cpu", amount);
  }

  static QuotaSpec top(String name, long min, long max) {
    return QuotaSpec.leaf(name, "", cpu(min), cpu(max));
  }

  static QuotaLedger ledger(long clusterTotal, QuotaSpec... specs) {
    QuotaLedger ledger = new QuotaLedger(QuotaTree.of(List.of(specs)));
    ledger.setClusterTotal(cpu(clusterTotal));
    return ledger;
  }

  private static long runtime(QuotaLedger ledger, String quota) {
    return ledger.runtime(quota).get("cpu");
  }

  @Test
  void aQuotaThatDoesNotLendKeepsItsMinWhileIdle() {
    QuotaLedger ledger =
        ledger(100, top("a", 40, 100).withoutLending(), top("b", 20, 100));
    ledger.addPending("a", cpu(10));
    ledger.addPending("b", cpu(100));

    // a: request = max(10, min 40) = 40 -> not hungry, keeps base 40.
    // b: hungry from base 20; remainder 100 - 60 = 40 all to b.
    assertThat(ledger.request("a")).isEqualTo(cpu(40));
    assertThat(runtime(ledger, "a")).isEqualTo(40);
    assertThat(runtime(ledger, "b")).isEqualTo(60);
    assertThat(ledger.childRequest(QuotaTree.ROOT)).isEqualTo(cpu(140));
  }

  @Test
  void aLendingQuotaGetsOnlyItsRequestAndTheRestGoesToTheHungry() {
    QuotaLedger ledger = ledger(100, top("a", 40, 100), top("b", 20, 100));
    ledger.addPending("a", cpu(10));
    ledger.addPending("b", cpu(100));

    assertThat(ledger.request("a")).isEqualTo(cpu(10));
    assertThat(runtime(ledger, "a")).isEqualTo(10);
    assertThat(runtime(ledger, "b")).isEqualTo(90);
  }

  @Test
  void remainderIsSplitByWeightOneToTwo() {
    QuotaLedger ledger =
        ledger(
            100,
            top("a", 10, 100).withSharedWeight(cpu(1)),
            top("b", 10, 100).withSharedWeight(cpu(2)));
    ledger.addPending("a", cpu(100));
    ledger.addPending("b", cpu(100));

    // Remainder 80: a 80/3 = 26 rem 2, b 160/3 = 53 rem 1; the lost unit goes to a.
    assertThat(runtime(ledger, "a")).isEqualTo(10 + 27);
    assertThat(runtime(ledger, "b")).isEqualTo(10 + 53);
  }

  @Test
  void equalWeightsSplitTenAsFourThreeThreeInNameOrder() {
    // Declared out of order on purpose: ties go by name, not by input order.
    QuotaLedger ledger = ledger(10, top("c", 0, 100), top("b", 0, 100), top("a", 0, 100));
    for (String quota : List.of("a", "b", "c")) {
      ledger.addPending(quota, cpu(100));
    }

    assertThat(runtime(ledger, "a")).isEqualTo(4);
    assertThat(runtime(ledger, "b")).isEqualTo(3);
    assertThat(runtime(ledger, "c")).isEqualTo(3);
  }

  @Test
  void minsAreScaledDownWhenTheySumAboveTheTotal() {
    QuotaLedger ledger = ledger(60, top("a", 40, 200), top("b", 80, 200));
    ledger.addPending("a", cpu(200));
    ledger.addPending("b", cpu(200));

    // Sum of min 120 > 60: a gets 40 * 60 / 120 = 20, b 80 * 60 / 120 = 40, nothing left over.
    assertThat(runtime(ledger, "a")).isEqualTo(20);
    assertThat(runtime(ledger, "b")).isEqualTo(40);
  }

  @Test
  void scaledMinsSumExactlyToTheTotal() {
    QuotaLedger ledger =
        ledger(10, top("a", 5, 100), top("b", 5, 100), top("c", 5, 100).withoutLending());
    ledger.addPending("a", cpu(100));
    ledger.addPending("b", cpu(100));

    // 10 * 5 / 15 = 3.33 each: 4, 3, 3 by name; c keeps its scaled min though idle.
    assertThat(runtime(ledger, "a")).isEqualTo(4);
    assertThat(runtime(ledger, "b")).isEqualTo(3);
    assertThat(runtime(ledger, "c")).isEqualTo(3);
  }

  @Test
  void maxCapsTheShareAndTheCutGoesToTheOthers() {
    QuotaLedger ledger =
        ledger(
            100,
            top("a", 0, 30).withSharedWeight(cpu(1)),
            top("b", 0, 100).withSharedWeight(cpu(1)));
    ledger.addPending("a", cpu(100));
    ledger.addPending("b", cpu(100));

    // a asks its parent for min(100, max 30) = 30; 50/50 split, a's extra 20 recycled to b.
    assertThat(ledger.limitedRequest("a")).isEqualTo(cpu(30));
    assertThat(runtime(ledger, "a")).isEqualTo(30);
    assertThat(runtime(ledger, "b")).isEqualTo(70);
  }

  @Test
  void surplusOfASatisfiedChildIsSplitAgain() {
    QuotaLedger ledger = ledger(90, top("a", 0, 100), top("b", 0, 100), top("c", 0, 100));
    ledger.addPending("a", cpu(20));
    ledger.addPending("b", cpu(100));
    ledger.addPending("c", cpu(100));

    // 30 each; a needs 20, its 10 left over split 5/5.
    assertThat(runtime(ledger, "a")).isEqualTo(20);
    assertThat(runtime(ledger, "b")).isEqualTo(35);
    assertThat(runtime(ledger, "c")).isEqualTo(35);
  }

  @Test
  void spareStaysWithTheParentWhenNobodyIsHungry() {
    QuotaLedger ledger = ledger(100, top("a", 10, 100), top("b", 10, 100));
    ledger.addPending("a", cpu(30));

    assertThat(runtime(ledger, "a")).isEqualTo(30);
    assertThat(runtime(ledger, "b")).isZero();
    assertThat(runtime(ledger, QuotaTree.ROOT)).isEqualTo(100);
  }

  @Test
  void guaranteedRaisesTheStartingPoint() {
    QuotaLedger ledger =
        ledger(100, top("a", 10, 100).withGuaranteed(cpu(30)), top("b", 10, 100));
    ledger.addPending("a", cpu(100));
    ledger.addPending("b", cpu(100));

    // a starts at 30, b at 10; 60 left, weights 100:100 -> 30 each.
    assertThat(runtime(ledger, "a")).isEqualTo(60);
    assertThat(runtime(ledger, "b")).isEqualTo(40);
  }

  @Test
  void aLeafBorrowsFromAnIdleSiblingAndLosesItWhenTheSiblingsDemandReturns() {
    QuotaLedger ledger =
        ledger(
            100,
            QuotaSpec.group("org", "", cpu(100), cpu(100)),
            QuotaSpec.leaf("team-a", "org", cpu(50), cpu(100)),
            QuotaSpec.leaf("team-b", "org", cpu(50), cpu(100)));

    ledger.addPending("team-a", cpu(80));
    assertThat(runtime(ledger, "org")).isEqualTo(80);
    assertThat(runtime(ledger, "team-a")).isEqualTo(80);
    assertThat(ledger.canAdmit("team-a", cpu(80)).admissible()).isTrue();
    ledger.admit("team-a", cpu(80));
    assertThat(ledger.borrowed("team-a")).isEqualTo(cpu(30));
    assertThat(ledger.used("org")).isEqualTo(cpu(80));

    ledger.addPending("team-b", cpu(50));
    // org asks min(130, max 100) = 100; team-b's 50 fits its min, team-a is cut back to its 50.
    assertThat(runtime(ledger, "org")).isEqualTo(100);
    assertThat(runtime(ledger, "team-b")).isEqualTo(50);
    assertThat(runtime(ledger, "team-a")).isEqualTo(50);
    AdmissionResult blocked = ledger.canAdmit("team-b", cpu(50));
    assertThat(blocked)
        .isEqualTo(new AdmissionResult(false, "org", "cpu", 50, 20));
  }

  @Test
  void moreLevelsPassTheParentsRuntimeDown() {
    QuotaLedger ledger =
        ledger(
            120,
            QuotaSpec.group("x", "", cpu(60), cpu(120)),
            QuotaSpec.group("y", "", cpu(60), cpu(120)),
            QuotaSpec.leaf("x1", "x", cpu(30), cpu(120)),
            QuotaSpec.leaf("x2", "x", cpu(30), cpu(120)),
            QuotaSpec.leaf("y1", "y", cpu(60), cpu(120)));
    ledger.addPending("x1", cpu(100));
    ledger.addPending("x2", cpu(10));
    ledger.addPending("y1", cpu(40));

    // Root: x asks 110 (hungry from 60), y asks 40 (lends, gets 40); x gets the other 80.
    // x: x2 gets its 10, x1 starts at 30 and takes the remaining 40.
    assertThat(runtime(ledger, "y")).isEqualTo(40);
    assertThat(runtime(ledger, "x")).isEqualTo(80);
    assertThat(runtime(ledger, "x2")).isEqualTo(10);
    assertThat(runtime(ledger, "x1")).isEqualTo(70);
  }
}
