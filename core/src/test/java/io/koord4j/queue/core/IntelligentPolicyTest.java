package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.singleTeam;
import static io.koord4j.queue.core.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * koord-queue's Intelligent policy: units at or above the priority threshold go first and block
 * their quota as under Block; the others follow as under Priority, and only while no unit above
 * the threshold waits.
 */
class IntelligentPolicyTest {

  /** team has 10 CPUs; "running" holds 5. */
  private static AdmissionCore intelligentTeam(int threshold) {
    AdmissionCore core = singleTeam(10);
    core.upsertQueue(
        QueueConfig.of("q").withPolicy(QueuePolicy.INTELLIGENT).withPriorityThreshold(threshold));
    core.upsertUnit(unit("ns/running", "q", "team", 9, 0, 5));
    core.pass(at(1));
    return core;
  }

  @Test
  void aWaitingUnitAboveTheThresholdHoldsBackEveryUnitBelowIt() {
    AdmissionCore core = intelligentTeam(4);
    core.upsertUnit(unit("ns/high", "q", "team", 5, 2, 8));
    core.upsertUnit(unit("ns/low", "q", "team", 1, 3, 1));

    AdmissionPass pass = core.pass(at(4));

    assertThat(pass.admitted()).isEmpty();
    assertThat(pass.waiting().get("ns/high").reason().message())
        .isEqualTo("quota \"team\" has 5 of cpu available, 8 requested");
    assertThat(pass.waiting().get("ns/low").reason().message())
        .isEqualTo("waiting behind ns/high (Intelligent policy: units of priority 4 or more go first)");

    core.markFinished("ns/running");
    assertThat(core.pass(at(5)).admitted()).containsExactly("ns/high", "ns/low");
  }

  @Test
  void unitsAboveTheThresholdBlockLaterOnesOfTheirQuotaAsUnderBlock() {
    AdmissionCore core = intelligentTeam(4);
    core.upsertUnit(unit("ns/high-big", "q", "team", 6, 2, 8));
    core.upsertUnit(unit("ns/high-small", "q", "team", 5, 3, 1));

    AdmissionPass pass = core.pass(at(4));

    assertThat(pass.admitted()).isEmpty();
    assertThat(pass.waiting().get("ns/high-small").reason().message())
        .isEqualTo("blocked behind ns/high-big (Block policy)");
  }

  @Test
  void unitsBelowTheThresholdPassEachOtherAsUnderPriority() {
    AdmissionCore core = intelligentTeam(4);
    core.upsertUnit(unit("ns/low-big", "q", "team", 3, 2, 8));
    core.upsertUnit(unit("ns/low-small", "q", "team", 1, 3, 1));

    assertThat(core.pass(at(4)).admitted()).containsExactly("ns/low-small");
  }

  @Test
  void theThresholdDecidesWhichTierAUnitIsIn() {
    AdmissionCore core = intelligentTeam(6);
    core.upsertUnit(unit("ns/five", "q", "team", 5, 2, 8));
    core.upsertUnit(unit("ns/one", "q", "team", 1, 3, 1));

    assertThat(core.pass(at(4)).admitted()).containsExactly("ns/one");
    assertThat(QueuePolicy.fromSpec("Intelligent")).isEqualTo(QueuePolicy.INTELLIGENT);
  }
}
