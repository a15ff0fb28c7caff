package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.singleTeam;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Conservative backfill: on a 10-CPU quota, a 6-CPU unit runs until second 100 (expected), and a
 * 10-CPU gang waits for it; later units go ahead only without delaying the gang.
 */
class BackfillTest {

  private static UnitSpec unit(String id, long arrival, long cores, Long expectedSeconds) {
    return new UnitSpec(
        id, "q", "team", 0, at(arrival), cpu(cores), 1,
        expectedSeconds == null ? null : Duration.ofSeconds(expectedSeconds));
  }

  /** The running unit was admitted at 0 and is expected to run 100 s; the gang arrives at 1. */
  private static AdmissionCore gangBehindRunningUnit(QueueConfig queue) {
    AdmissionCore core = singleTeam(10);
    core.upsertQueue(queue);
    core.upsertUnit(unit("ns/running", 0, 6, 100L));
    assertThat(core.pass(at(0)).admitted()).containsExactly("ns/running");
    core.upsertUnit(unit("ns/gang", 1, 10, 50L));
    return core;
  }

  private static AdmissionCore backfilling() {
    return gangBehindRunningUnit(QueueConfig.of("q").withBackfill());
  }

  @Test
  void blockedUnitIsReservedTheExpectedEndOfWhatHoldsItsQuota() {
    AdmissionCore core = backfilling();

    AdmissionPass pass = core.pass(at(2));

    assertThat(pass.reservations()).containsExactly(new Reservation("ns/gang", at(100)));
    assertThat(pass.waiting().get("ns/gang").reason().message())
        .endsWith("; reserved to start by 2025-01-01T00:01:40Z (backfill)");
  }

  @Test
  void laterUnitThatEndsBeforeTheReservationGoesAhead() {
    AdmissionCore core = backfilling();
    core.upsertUnit(unit("ns/short", 3, 4, 90L));

    assertThat(core.pass(at(5)).admitted()).containsExactly("ns/short");
  }

  @Test
  void laterUnitThatWouldRunPastTheReservationWaitsBehindIt() {
    AdmissionCore core = backfilling();
    core.upsertUnit(unit("ns/long", 3, 4, 200L));

    AdmissionPass pass = core.pass(at(5));

    assertThat(pass.admitted()).isEmpty();
    assertThat(pass.waiting().get("ns/long").reason())
        .isEqualTo(new WaitReason.BehindReservation(new Reservation("ns/gang", at(100))));
    assertThat(pass.waiting().get("ns/long").reason().message())
        .startsWith("waiting behind ns/gang, reserved to start by 2025-01-01T00:01:40Z");
  }

  @Test
  void laterUnitOfUnknownRuntimeGoesAheadOnlyWhereTheReservedUnitDoesNotNeedIt() {
    AdmissionCore core = singleTeam(10);
    core.upsertQueue(QueueConfig.of("q").withBackfill());
    core.upsertUnit(unit("ns/running", 0, 6, 100L));
    core.pass(at(0));
    core.upsertUnit(unit("ns/gang", 1, 7, 50L));
    core.upsertUnit(unit("ns/unknown-3", 2, 3, null));
    core.upsertUnit(unit("ns/unknown-1", 3, 1, null));

    AdmissionPass pass = core.pass(at(5));

    // At second 100 the gang takes 7 of 10 CPUs: 3 stay free for one of them, not both.
    assertThat(pass.admitted()).containsExactly("ns/unknown-3");
    assertThat(pass.waiting().get("ns/unknown-1").reason())
        .isInstanceOf(WaitReason.BehindReservation.class);
  }

  @Test
  void unitsThatEndByTheReservationTogetherMayExceedWhatItLeaves() {
    AdmissionCore core = backfilling();
    core.upsertUnit(unit("ns/short-a", 3, 2, 60L));
    core.upsertUnit(unit("ns/short-b", 4, 2, 90L));

    assertThat(core.pass(at(5)).admitted()).containsExactly("ns/short-a", "ns/short-b");
  }

  @Test
  void withoutBackfillAPriorityQueueLetsTheLongUnitDelayTheGang() {
    AdmissionCore core = gangBehindRunningUnit(QueueConfig.of("q"));
    core.upsertUnit(unit("ns/long", 3, 4, 200L));

    assertThat(core.pass(at(5)).admitted()).containsExactly("ns/long");
    core.markFinished("ns/running");
    assertThat(core.pass(at(100)).admitted()).isEmpty();
  }

  @Test
  void gangStartsAtItsReservationWhenTheEstimatesHold() {
    AdmissionCore core = backfilling();
    core.upsertUnit(unit("ns/short", 3, 4, 90L));
    core.upsertUnit(unit("ns/long", 4, 4, 200L));
    assertThat(core.pass(at(5)).admitted()).containsExactly("ns/short");

    core.markFinished("ns/short");
    assertThat(core.pass(at(93)).admitted()).isEmpty();
    core.markFinished("ns/running");

    assertThat(core.pass(at(100)).admitted()).containsExactly("ns/gang");
  }

  @Test
  void unitThatOutlivesItsEstimateIsNotStoppedAndTheReservationMoves() {
    AdmissionCore core = backfilling();

    AdmissionPass late = core.pass(at(150));

    assertThat(late.preemptions()).isEmpty();
    assertThat(late.reservations()).containsExactly(new Reservation("ns/gang", at(150)));
    assertThat(core.status("ns/running").orElseThrow().phase()).isEqualTo(UnitPhase.ADMITTED);
  }

  @Test
  void noExpectedEndMeansNoReservationAndTheQueueBlocks() {
    AdmissionCore core = singleTeam(10);
    core.upsertQueue(QueueConfig.of("q").withBackfill());
    core.upsertUnit(unit("ns/running", 0, 6, null));
    core.pass(at(0));
    core.upsertUnit(unit("ns/gang", 1, 10, 50L));
    core.upsertUnit(unit("ns/short", 2, 1, 5L));

    AdmissionPass pass = core.pass(at(3));

    assertThat(pass.reservations()).isEmpty();
    assertThat(pass.admitted()).isEmpty();
    assertThat(pass.waiting().get("ns/short").reason()).isEqualTo(new WaitReason.BlockedBehind("ns/gang"));
  }

  @Test
  void expectedRuntimeMustBePositive() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> unit("ns/x", 0, 1, 0L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected runtime must be positive");
  }
}
