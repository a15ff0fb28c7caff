package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.group;
import static io.koord4j.queue.core.Fixtures.leaf;
import static io.koord4j.queue.core.Fixtures.newCore;
import static io.koord4j.queue.core.Fixtures.singleTeam;
import static io.koord4j.queue.core.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Borrowing and reclaim between sibling quotas, and opt-in priority preemption inside a queue.
 * The org quota has 10 CPUs; team-a and team-b are entitled to 5 each and may borrow up to 10.
 */
class PreemptionTest {

  private static AdmissionCore twoTeams() {
    AdmissionCore core = newCore();
    core.setClusterTotal(cpu(10));
    core.upsertQuota(group("org", "", 10, 10));
    core.upsertQuota(leaf("team-a", "org", 5, 10));
    core.upsertQuota(leaf("team-b", "org", 5, 10));
    core.upsertQueue(QueueConfig.of("qa"));
    core.upsertQueue(QueueConfig.of("qb"));
    return core;
  }

  /** team-a borrows while team-b is idle: three units of 3 CPUs, admitted one per pass. */
  private static AdmissionCore teamABorrowingFourCpus() {
    AdmissionCore core = twoTeams();
    for (int i = 1; i <= 3; i++) {
      core.upsertUnit(unit("ns/a" + i, "qa", "team-a", 0, i, 3));
      assertThat(core.pass(at(i)).admitted()).containsExactly("ns/a" + i);
    }
    assertThat(core.used("team-a")).isEqualTo(cpu(9));
    return core;
  }

  @Test
  void borrowerIsPreemptedWhenTheLenderNeedsItsShareBackAndTheLenderGetsIn() {
    AdmissionCore core = teamABorrowingFourCpus();
    core.upsertUnit(unit("ns/b1", "qb", "team-b", 0, 10, 4));

    AdmissionPass pass = core.pass(at(11));

    // Freeing the most recent borrower (3 CPUs) leaves 4 for team-b: one victim is enough.
    assertThat(pass.preemptions())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.unitId()).isEqualTo("ns/a3");
              assertThat(p.preemptor()).isEqualTo("ns/b1");
              assertThat(p.reason())
                  .isEqualTo("preempted: ns/b1 in quota \"team-b\" reclaims the quota it lent");
            });
    assertThat(pass.waiting().get("ns/b1").reason().message())
        .isEqualTo("waiting for preempted ns/a3 to release quota");

    core.requeue("ns/a3", at(12));
    AdmissionPass after = core.pass(at(13));

    assertThat(after.admitted()).containsExactly("ns/b1");
    assertThat(core.status("ns/a3").orElseThrow().phase()).isEqualTo(UnitPhase.BACKOFF);
    assertThat(core.used("org")).isEqualTo(cpu(10));
  }

  @Test
  void aPreemptionInFlightIsNeverRepeated() {
    AdmissionCore core = teamABorrowingFourCpus();
    core.upsertUnit(unit("ns/b1", "qb", "team-b", 0, 10, 4));
    core.upsertUnit(unit("ns/b2", "qb", "team-b", 0, 11, 1));
    assertThat(core.pass(at(12)).preemptions()).hasSize(1);

    AdmissionPass again = core.pass(at(13));

    assertThat(again.preemptions()).isEmpty();
    assertThat(core.used("team-a")).isEqualTo(cpu(9));
    assertThat(core.status("ns/a3").orElseThrow().preempting()).isTrue();
  }

  @Test
  void doesNotPreemptWhenThatWouldNotMakeTheUnitFit() {
    AdmissionCore core = teamABorrowingFourCpus();
    // Both teams now ask for more than their min, so each runs at its 5-CPU share; team-b's own
    // share cannot hold 8 CPUs whatever team-a gives back.
    core.upsertUnit(unit("ns/b-big", "qb", "team-b", 0, 10, 8));

    AdmissionPass pass = core.pass(at(11));

    assertThat(pass.preemptions()).isEmpty();
    assertThat(pass.waiting().get("ns/b-big").reason().message())
        .isEqualTo("quota \"team-b\" has 5 of cpu available, 8 requested");
  }

  @Test
  void lowerPriorityUnitsOfTheSameQueueArePreemptedOnlyWhenTheQueueAllowsIt() {
    AdmissionCore core = singleTeam(4);
    core.upsertUnit(unit("ns/low", "q", "team", 1, 0, 4));
    core.pass(at(1));
    core.upsertUnit(unit("ns/high", "q", "team", 10, 2, 4));

    assertThat(core.pass(at(3)).preemptions()).isEmpty();

    core.upsertQueue(QueueConfig.of("q").withPreemption());
    AdmissionPass pass = core.pass(at(4));

    assertThat(pass.preemptions())
        .extracting(Preemption::unitId, Preemption::reason)
        .containsExactly(
            tuple(
                "ns/low", "preempted by ns/high of higher priority 10 in queue \"q\""));
    core.requeue("ns/low", at(5));
    assertThat(core.pass(at(6)).admitted()).containsExactly("ns/high");
  }

  @Test
  void equalPriorityIsNeverPreemptedInsideAQueue() {
    AdmissionCore core = singleTeam(4);
    core.upsertQueue(QueueConfig.of("q").withPreemption());
    core.upsertUnit(unit("ns/first", "q", "team", 5, 0, 4));
    core.pass(at(1));
    core.upsertUnit(unit("ns/second", "q", "team", 5, 2, 4));

    assertThat(core.pass(at(3)).preemptions()).isEmpty();
  }

  @Test
  void aPreemptedUnitComesBackAfterItsBackoff() {
    AdmissionCore core = singleTeam(4);
    core.upsertQueue(QueueConfig.of("q").withPreemption());
    core.upsertUnit(unit("ns/low", "q", "team", 1, 0, 2));
    core.pass(at(1));
    core.upsertUnit(unit("ns/high", "q", "team", 10, 2, 4));
    core.pass(at(3));
    core.requeue("ns/low", at(4));
    core.pass(at(5));
    core.markFinished("ns/high");

    AdmissionPass early = core.pass(at(6));
    AdmissionPass late = core.pass(at(4 + 12));

    assertThat(early.admitted()).isEmpty();
    assertThat(early.waiting().get("ns/low").phase()).isEqualTo(UnitPhase.BACKOFF);
    assertThat(late.admitted()).containsExactly("ns/low");
    assertThat(core.status("ns/low").orElseThrow().attempts()).isEqualTo(1);
  }

  @Test
  void anEvictionReplayedAfterARestartHoldsItsQuotaAndStartsNoSecondOne() {
    AdmissionCore before = teamABorrowingFourCpus();
    before.upsertUnit(unit("ns/b1", "qb", "team-b", 0, 10, 4));
    assertThat(before.pass(at(11)).preemptions())
        .extracting(Preemption::unitId)
        .containsExactly("ns/a3");

    AdmissionCore after = twoTeams();
    for (String id : new String[] {"ns/a1", "ns/a2", "ns/a3", "ns/b1"}) {
      after.upsertUnit(before.status(id).orElseThrow().spec());
    }
    after.markAdmitted("ns/a1", at(1));
    after.markAdmitted("ns/a2", at(2));
    after.markPreempted("ns/a3", at(3));
    after.markPreempted("ns/a3", at(3)); // informer resync
    AdmissionPass waiting = after.pass(at(20));

    assertThat(waiting.preemptions()).isEmpty();
    assertThat(waiting.admitted()).isEmpty();
    assertThat(after.used("team-a")).isEqualTo(cpu(9));
    assertThat(after.status("ns/a3").orElseThrow().preempting()).isTrue();

    after.requeue("ns/a3", at(21));
    assertThat(after.pass(at(22)).admitted()).containsExactly("ns/b1");
    assertThat(after.used("org")).isEqualTo(cpu(10));
  }

  @Test
  void aVictimAdoptedAfterARestartHoldsUpOnlyItsOwnTree() {
    AdmissionCore core = twoTeams();
    core.upsertQuota(group("lab", "", 4, 4));
    core.upsertQuota(leaf("lab-x", "lab", 4, 4));
    core.upsertQueue(QueueConfig.of("ql").withPreemption());
    core.upsertUnit(unit("ns/stuck", "qa", "team-a", 0, 0, 3));
    core.markPreempted("ns/stuck", at(0));
    core.upsertUnit(unit("ns/low", "ql", "lab-x", 0, 1, 4));
    core.pass(at(2));

    core.upsertUnit(unit("ns/high", "ql", "lab-x", 10, 3, 4));
    AdmissionPass pass = core.pass(at(4));

    assertThat(pass.preemptions()).extracting(Preemption::unitId).containsExactly("ns/low");
  }

  @Test
  void aVictimThatDoesNotStopIsGivenUpOnAndPreemptionMovesOn() {
    AdmissionCore core = teamABorrowingFourCpus();
    core.upsertUnit(unit("ns/b1", "qb", "team-b", 0, 10, 4));
    assertThat(core.pass(at(11)).preemptions()).extracting(Preemption::unitId).containsExactly("ns/a3");
    Instant deadline = at(11).plus(PreemptionsInFlight.TIMEOUT);

    AdmissionPass before = core.pass(at(12));
    assertThat(before.nextPassBy()).contains(deadline);
    assertThat(before.timedOutVictims()).isEmpty();

    AdmissionPass timedOut = core.pass(deadline);
    assertThat(timedOut.timedOutVictims()).containsExactly("ns/a3");
    assertThat(timedOut.preemptions()).extracting(Preemption::unitId).containsExactly("ns/a2");
    assertThat(core.status("ns/a3").orElseThrow().preempting()).as("never chosen again").isTrue();
    assertThat(core.pass(deadline.plusSeconds(1)).timedOutVictims()).as("reported once").isEmpty();
  }
}
