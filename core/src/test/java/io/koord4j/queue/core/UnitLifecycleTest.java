package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.singleTeam;
import static io.koord4j.queue.core.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Requeue and backoff, waiting for pods, finishing, and replaying admitted units on restart. */
class UnitLifecycleTest {

  @Test
  void aRequeuedUnitWaitsOutItsBackoffEvenWhenItFits() {
    AdmissionCore core = singleTeam(4);
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 2));
    core.pass(at(1));

    core.requeue("ns/a", at(2));
    UnitStatus status = core.status("ns/a").orElseThrow();
    Duration delay = Duration.between(at(2), status.backoffUntil());
    AdmissionPass during = core.pass(at(3));

    assertThat(delay).isBetween(Duration.ofSeconds(9), Duration.ofSeconds(11));
    assertThat(core.used("team")).isEqualTo(cpu(0));
    assertThat(during.admitted()).isEmpty();
    assertThat(during.nextPassBy()).contains(status.backoffUntil());
    assertThat(during.waiting().get("ns/a").reason().message())
        .isEqualTo("in backoff until " + status.backoffUntil() + " after 1 requeue");
    assertThat(core.pass(status.backoffUntil()).admitted()).containsExactly("ns/a");
  }

  @Test
  void eachRequeueDoublesTheBackoffOfThatQueue() {
    AdmissionCore core = singleTeam(4);
    core.upsertQueue(
        QueueConfig.of("q").withBackoff(new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(3))));
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 2));

    Instant now = at(0);
    long[] delays = new long[3];
    for (int i = 0; i < 3; i++) {
      core.requeue("ns/a", now);
      Instant until = core.status("ns/a").orElseThrow().backoffUntil();
      delays[i] = Duration.between(now, until).toMillis();
      now = until;
    }

    assertThat(delays[0]).isBetween(900L, 1100L);
    assertThat(delays[1]).isBetween(1800L, 2200L);
    assertThat(delays[2]).isBetween(2700L, 3300L);
  }

  @Test
  void aQueueThatWaitsForPodsAdmitsNothingMoreUntilThePodsRun() {
    AdmissionCore core = singleTeam(4);
    core.upsertQueue(QueueConfig.of("q").withWaitForPodsRunning());
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 1));
    core.upsertUnit(unit("ns/b", "q", "team", 0, 1, 1));

    AdmissionPass first = core.pass(at(2));

    assertThat(first.admitted()).containsExactly("ns/a");
    assertThat(first.waiting().get("ns/b").reason().message())
        .isEqualTo("queue waits for pods of ns/a to run");

    core.markPodsRunning("ns/a");
    assertThat(core.pass(at(3)).admitted()).containsExactly("ns/b");
  }

  @Test
  void finishingReleasesQuotaOnce() {
    AdmissionCore core = singleTeam(4);
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 3));
    core.upsertUnit(unit("ns/b", "q", "team", 0, 1, 3));
    core.pass(at(2));

    core.markFinished("ns/a");
    core.markFinished("ns/a");

    assertThat(core.used("team")).isEqualTo(cpu(0));
    assertThat(core.pass(at(3)).admitted()).containsExactly("ns/b");
    core.removeUnit("ns/a");
    assertThat(core.status("ns/a")).isEmpty();
    assertThat(core.used("team")).isEqualTo(cpu(3));
  }

  @Test
  void replayingAdmittedUnitsAfterARestartCountsTheirQuotaOnce() {
    AdmissionCore before = singleTeam(10);
    for (int i = 0; i < 5; i++) {
      before.upsertUnit(unit("ns/u" + i, "q", "team", 0, i, 3));
    }
    before.pass(at(10));

    AdmissionCore after = singleTeam(10);
    for (int i = 0; i < 5; i++) {
      UnitStatus status = before.status("ns/u" + i).orElseThrow();
      after.upsertUnit(status.spec());
      if (status.phase() == UnitPhase.ADMITTED) {
        after.markAdmitted(status.spec().id(), status.admittedAt());
        after.markAdmitted(status.spec().id(), status.admittedAt()); // informer resync
      }
    }

    assertThat(after.used("team")).isEqualTo(before.used("team")).isEqualTo(cpu(9));
    assertThat(after.pass(at(11)).admitted()).isEmpty();
    after.upsertUnit(before.status("ns/u0").orElseThrow().spec()); // unchanged: no effect
    assertThat(after.used("team")).isEqualTo(cpu(9));
  }

  @Test
  void positionsFollowQueueOrderSeparatelyForPendingAndBackoff() {
    AdmissionCore core = singleTeam(1);
    core.upsertUnit(unit("ns/running", "q", "team", 0, 0, 1));
    core.pass(at(1));
    core.upsertUnit(unit("ns/p1", "q", "team", 5, 2, 1));
    core.upsertUnit(unit("ns/p2", "q", "team", 0, 3, 1));
    core.upsertUnit(unit("ns/r1", "q", "team", 0, 4, 1));
    core.requeue("ns/r1", at(5));

    AdmissionPass pass = core.pass(at(6));

    assertThat(pass.waiting().values())
        .extracting(WaitingUnit::unitId, WaitingUnit::phase, WaitingUnit::position)
        .containsExactly(
            tuple("ns/p1", UnitPhase.PENDING, 1),
            tuple("ns/p2", UnitPhase.PENDING, 2),
            tuple("ns/r1", UnitPhase.BACKOFF, 1));
  }

  @Test
  void changingAnAdmittedUnitsRequestMovesItsUsedAmount() {
    AdmissionCore core = singleTeam(10);
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 3));
    core.pass(at(1));

    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 5));

    assertThat(core.used("team")).isEqualTo(cpu(5));
    assertThat(core.status("ns/a").orElseThrow().phase()).isEqualTo(UnitPhase.ADMITTED);
  }

  @Test
  void aBackoffRecordedInTheClusterSurvivesARestart() {
    AdmissionCore before = singleTeam(4);
    before.upsertUnit(unit("ns/a", "q", "team", 0, 0, 2));
    before.requeue("ns/a", at(1));
    before.requeue("ns/a", at(2));
    UnitStatus recorded = before.status("ns/a").orElseThrow();

    AdmissionCore after = singleTeam(4);
    after.upsertUnit(recorded.spec());
    after.restoreRequeues("ns/a", recorded.attempts(), recorded.backoffUntil());
    after.restoreRequeues("ns/a", recorded.attempts(), recorded.backoffUntil()); // resync
    after.restoreRequeues("ns/a", 1, at(3)); // an older record

    AdmissionPass during = after.pass(at(3));
    assertThat(during.admitted()).isEmpty();
    assertThat(during.waiting().get("ns/a").phase()).isEqualTo(UnitPhase.BACKOFF);
    assertThat(after.status("ns/a").orElseThrow())
        .extracting(UnitStatus::attempts, UnitStatus::backoffUntil)
        .containsExactly(2, recorded.backoffUntil());
    assertThat(after.pass(recorded.backoffUntil()).admitted()).containsExactly("ns/a");

    Instant now = recorded.backoffUntil().plusSeconds(1);
    after.requeue("ns/a", now);
    UnitStatus third = after.status("ns/a").orElseThrow();
    assertThat(third.attempts()).isEqualTo(3);
    assertThat(Duration.between(now, third.backoffUntil()))
        .isBetween(Duration.ofSeconds(36), Duration.ofSeconds(44));
  }

  @Test
  void anAdmittedUnitKeepsItsRecordedRequeuesForItsNextBackoff() {
    AdmissionCore core = singleTeam(4);
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 2));
    core.markAdmitted("ns/a", at(1));
    core.restoreRequeues("ns/a", 1, null);

    assertThat(core.status("ns/a").orElseThrow().phase()).isEqualTo(UnitPhase.ADMITTED);
    core.requeue("ns/a", at(2));
    assertThat(core.status("ns/a").orElseThrow().attempts()).isEqualTo(2);
    assertThat(core.used("team")).isEqualTo(cpu(0));
  }

  @Test
  void aUnitEvictedWithARecordedRequeueReleasesItsQuotaAndWaitsUntilExactlyThen() {
    AdmissionCore core = singleTeam(4);
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 2));
    core.markAdmitted("ns/a", at(1));
    // The eviction stored its count and time; the core replays them and releases the quota.
    core.restoreRequeues("ns/a", 3, at(50));
    core.requeueUntil("ns/a", at(50));

    assertThat(core.used("team")).isEqualTo(cpu(0));
    assertThat(core.status("ns/a").orElseThrow())
        .extracting(UnitStatus::phase, UnitStatus::attempts, UnitStatus::backoffUntil)
        .containsExactly(UnitPhase.BACKOFF, 3, at(50));
    assertThat(core.pass(at(49)).admitted()).isEmpty();
    assertThat(core.pass(at(50)).admitted()).containsExactly("ns/a");
  }
}
