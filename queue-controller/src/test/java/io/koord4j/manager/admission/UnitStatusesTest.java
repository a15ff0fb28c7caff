package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.manager.support.Json;
import io.koord4j.queue.core.UnitPhase;
import io.koord4j.queue.core.UnitSpec;
import io.koord4j.queue.core.UnitStatus;
import io.koord4j.queue.core.WaitReason;
import io.koord4j.queue.core.WaitingUnit;
import io.koord4j.quota.AdmissionResult;
import io.koord4j.quota.ResourceVector;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnitStatusesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:01:00Z");

  @Test
  void anAdmittedUnitIsDequeuedWithItsQuotaReservedAndPodSetAdmissions() {
    QueueUnitStatus status = UnitStatuses.admitted(unit(), "nlp", T0);

    assertThat(status.getPhase()).isEqualTo(QueueUnitPhase.DEQUEUED);
    assertThat(status.getLastAllocateTime()).isEqualTo(T0.toString());
    assertThat(status.getConditions())
        .extracting(Condition::getType, Condition::getStatus)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(QueueUnitConditions.QUOTA_RESERVED, "True"),
            org.assertj.core.groups.Tuple.tuple(QueueUnitConditions.ADMITTED, "True"));
    assertThat(status.getAdmissions()).singleElement()
        .satisfies(
            admission -> {
              assertThat(admission.getReplicas()).isEqualTo(3);
              assertThat(admission.getResources()).containsEntry("cpu", new Quantity("1500m"));
            });
  }

  @Test
  void aUnitHoldsQuotaFromAdmissionUntilItsReleaseAndAJobChangeIsAnEvictionNamingIt() {
    QueueUnit unit = unit();
    assertThat(UnitStatuses.holdsQuota(unit.getStatus())).isFalse();
    unit.setStatus(UnitStatuses.admitted(unit, "nlp", T0));
    assertThat(UnitStatuses.holdsQuota(unit.getStatus())).isTrue();

    unit.setStatus(UnitStatuses.jobChanged(unit, "cpu from 1 to 2", T1));

    assertThat(UnitStatuses.holdsQuota(unit.getStatus())).as("until the job stops").isTrue();
    assertThat(UnitStatuses.find(unit.getStatus().getConditions(), QueueUnitConditions.EVICTED))
        .satisfies(
            c -> {
              assertThat(c.getReason()).isEqualTo(QueueUnitConditions.REASON_JOB_CHANGED);
              assertThat(c.getMessage())
                  .isEqualTo("the job changed after its quota was reserved (cpu from 1 to 2);"
                      + " it is suspended and requeued");
            });
    assertThat(UnitStatuses.holdsQuota(UnitStatuses.released(unit.getStatus(), T1))).isFalse();
  }

  @Test
  void aPreemptedUnitHoldsItsQuotaUntilItsJobStopsThenBacksOff() {
    QueueUnit unit = unit();
    unit.setStatus(UnitStatuses.admitted(unit, "nlp", T0));

    QueueUnitStatus evicted = UnitStatuses.preempted(unit, "quota nlp reclaims cpu", T0);

    assertThat(evicted.getPhase()).isEqualTo(QueueUnitPhase.TIMEOUT_BACKOFF);
    assertThat(UnitStatuses.find(evicted.getConditions(), QueueUnitConditions.EVICTED))
        .satisfies(
            c -> {
              assertThat(c.getStatus()).isEqualTo("True");
              assertThat(c.getReason()).isEqualTo(QueueUnitConditions.REASON_PREEMPTED);
            });
    assertThat(UnitStatuses.isAdmitted(evicted)).isFalse();
    assertThat(UnitStatuses.awaitsRelease(evicted)).isTrue();
    assertThat(UnitStatuses.awaitsBackoff(evicted)).isFalse();

    QueueUnitStatus released = UnitStatuses.released(evicted, T1);

    assertThat(released.getConditions())
        .filteredOn(c -> c.getType().equals(QueueUnitConditions.QUOTA_RESERVED))
        .singleElement()
        .satisfies(c -> assertThat(c.getStatus()).isEqualTo("False"));
    assertThat(released.getAdmissions()).isNull();
    assertThat(UnitStatuses.awaitsRelease(released)).isFalse();
    assertThat(UnitStatuses.awaitsBackoff(released)).isTrue();

    unit.setStatus(released);
    WaitingUnit waiting =
        new WaitingUnit("ns/job", "q", UnitPhase.BACKOFF, 1, new WaitReason.InBackoff(T1, 1));
    UnitStatus core = new UnitStatus(spec(), UnitPhase.BACKOFF, 1, T1, null, false, false);
    QueueUnitStatus backingOff = UnitStatuses.waiting(unit, waiting, core, T1);

    assertThat(UnitStatuses.awaitsBackoff(backingOff)).isFalse();
    assertThat(UnitStatuses.requeues(backingOff)).isEqualTo(1);
    assertThat(UnitStatuses.requeueAt(backingOff)).isEqualTo(T1);
  }

  @Test
  void aUnitWhosePodsWereLateKeepsItsQuotaUntilItsJobStopsThenBacksOffUntilTheRecordedTime() {
    QueueUnit unit = unit();
    unit.setStatus(UnitStatuses.podsReady(unit, T0));
    unit.setStatus(UnitStatuses.admitted(unit, "nlp", T0));

    QueueUnitStatus evicted = UnitStatuses.podsReadyTimedOut(unit, 2, T1, "evicted: pods late", T0);

    assertThat(UnitStatuses.awaitsRelease(evicted)).isTrue();
    assertThat(UnitStatuses.find(evicted.getConditions(), QueueUnitConditions.EVICTED))
        .extracting(Condition::getReason, Condition::getMessage)
        .containsExactly(QueueUnitConditions.REASON_PODS_READY_TIMEOUT, "evicted: pods late");
    assertThat(UnitStatuses.find(evicted.getConditions(), QueueUnitConditions.PODS_READY).getStatus())
        .as("the next admission's pods must be ready again").isEqualTo("False");
    QueueUnitStatus released = UnitStatuses.released(evicted, T0);
    assertThat(UnitStatuses.holdsQuota(released)).isFalse();
    assertThat(UnitStatuses.requeues(released)).isEqualTo(2);
    assertThat(UnitStatuses.requeueAt(released)).isEqualTo(T1);
  }

  @Test
  void aDeactivatedUnitLeavesItsQueueOnceItsJobStoppedAndForgetsItsRequeues() {
    QueueUnit unit = unit();
    unit.setStatus(UnitStatuses.podsReadyTimedOut(unit, 3, T1, "evicted: pods late", T0));
    unit.setStatus(UnitStatuses.admitted(unit, "nlp", T1));

    QueueUnitStatus deactivated = UnitStatuses.deactivated(
        unit, QueueUnitConditions.REASON_DEACTIVATED, "deactivated: pods late after 3 requeues, the limit", T1);

    assertThat(UnitStatuses.awaitsRelease(deactivated)).isTrue();
    QueueUnitStatus released = UnitStatuses.released(deactivated, T1);
    assertThat(released.getPhase()).isEqualTo(QueueUnitPhase.ENQUEUED);
    assertThat(released.getMessage()).isEqualTo("deactivated: pods late after 3 requeues, the limit");
    assertThat(UnitStatuses.awaitsBackoff(released)).isFalse();
    assertThat(UnitStatuses.requeues(released)).isZero();
  }

  @Test
  void anAdmissionEndsTheBackoffButKeepsTheRequeueCount() {
    QueueUnit unit = unit();
    WaitingUnit waiting =
        new WaitingUnit("ns/job", "q", UnitPhase.BACKOFF, 1, new WaitReason.InBackoff(T1, 2));
    UnitStatus core = new UnitStatus(spec(), UnitPhase.BACKOFF, 2, T1, null, false, false);
    unit.setStatus(UnitStatuses.waiting(unit, waiting, core, T0));

    QueueUnitStatus admitted = UnitStatuses.admitted(unit, "nlp", T1);

    assertThat(UnitStatuses.requeues(admitted)).isEqualTo(2);
    assertThat(UnitStatuses.requeueAt(admitted)).isNull();
    assertThat(admitted.getRequeueState().getRequeueAt()).isNull();
  }

  @Test
  void waitingForTheSameReasonAgainChangesNothing() {
    QueueUnit unit = unit();
    WaitingUnit waiting =
        new WaitingUnit("ns/job", "q", UnitPhase.PENDING, 1, new WaitReason.BlockedBehind("ns/big"));
    UnitStatus core = new UnitStatus(spec(), UnitPhase.PENDING, 0, null, null, false, false);
    unit.setStatus(UnitStatuses.waiting(unit, waiting, core, T0));

    QueueUnitStatus again = UnitStatuses.waiting(unit, waiting, core, T1);

    assertThat(Json.same(unit.getStatus(), again)).isTrue();
    assertThat(again.getPhase()).isEqualTo(QueueUnitPhase.ENQUEUED);
    assertThat(again.getMessage()).contains("blocked behind ns/big");
    assertThat(again.getConditions()).singleElement()
        .satisfies(c -> assertThat(c.getReason()).isEqualTo("BlockedBehind"));
  }

  @Test
  void aUnitWhoseNamespaceIsNotBoundToItsQuotaSaysSoInItsConditionAndMessage() {
    QueueUnit unit = unit();
    String refusal = "metadata.labels[quota.scheduling.koordinator.sh/name]: quota \"team-b\" is not bound to"
        + " namespace \"ns\" (it lives in \"team-b\" and lists no other namespaces)";
    WaitingUnit waiting =
        new WaitingUnit("ns/job", "q", UnitPhase.PENDING, 1, new WaitReason.QuotaNotBound(refusal));
    UnitStatus core = new UnitStatus(spec(), UnitPhase.PENDING, 0, null, null, false, false);

    QueueUnitStatus status = UnitStatuses.waiting(unit, waiting, core, T0);

    assertThat(status.getPhase()).isEqualTo(QueueUnitPhase.ENQUEUED);
    assertThat(status.getMessage()).contains(refusal);
    assertThat(status.getConditions()).singleElement().satisfies(c -> {
      assertThat(c.getType()).isEqualTo(QueueUnitConditions.QUOTA_RESERVED);
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo("QuotaNotBound");
      assertThat(c.getMessage()).contains(refusal);
    });
  }

  @Test
  void anEnqueuedUnitCarriesItsPositionWhichIsWrittenOnlyWhenItMovesAndDroppedOnAdmission() {
    QueueUnit unit = unit();
    WaitReason full = new WaitReason.BlockedBehind("ns/big");
    UnitStatus core = new UnitStatus(spec(), UnitPhase.PENDING, 0, null, null, false, false);
    unit.setStatus(UnitStatuses.waiting(unit, new WaitingUnit("ns/job", "q", UnitPhase.PENDING, 3, full), core, T0));

    QueueUnitStatus same = UnitStatuses.waiting(unit, new WaitingUnit("ns/job", "q", UnitPhase.PENDING, 3, full), core, T1);
    QueueUnitStatus moved = UnitStatuses.waiting(unit, new WaitingUnit("ns/job", "q", UnitPhase.PENDING, 2, full), core, T1);

    assertThat(unit.getStatus().getPositionInQueue()).isEqualTo(3);
    assertThat(Json.same(unit.getStatus(), same)).as("same place, same reason: nothing to write").isTrue();
    assertThat(moved.getPositionInQueue()).isEqualTo(2);
    assertThat(Json.same(unit.getStatus(), moved)).isFalse();
    assertThat(UnitStatuses.admitted(unit, "nlp", T1).getPositionInQueue()).isNull();
  }

  @Test
  void aShortageWhoseAmountsAloneChangeIsNoNewsButABackoffIs() {
    QueueUnit unit = unit();
    UnitStatus pending = new UnitStatus(spec(), UnitPhase.PENDING, 0, null, null, false, false);
    unit.setStatus(UnitStatuses.waiting(unit, shortage(UnitPhase.PENDING, 3000), pending, T0));

    QueueUnitStatus lessFree = UnitStatuses.waiting(unit, shortage(UnitPhase.PENDING, 1000), pending, T1);
    UnitStatus backingOff = new UnitStatus(spec(), UnitPhase.BACKOFF, 1, T1, null, false, false);
    QueueUnitStatus backoff = UnitStatuses.waiting(unit, shortage(UnitPhase.BACKOFF, 1000), backingOff, T1);

    assertThat(Json.same(unit.getStatus(), lessFree)).isFalse();
    assertThat(UnitStatuses.changesMoreThanItsWaitMessage(unit.getStatus(), lessFree)).isFalse();
    assertThat(UnitStatuses.changesMoreThanItsWaitMessage(unit.getStatus(), backoff)).isTrue();
  }

  @Test
  void aRestartedManagerReadsTheWaitAlreadyAnnouncedFromTheStoredStatus() {
    QueueUnit unit = unit();
    UnitStatus pending = new UnitStatus(spec(), UnitPhase.PENDING, 0, null, null, false, false);
    QueueUnitStatus shortage = UnitStatuses.waiting(unit, shortage(UnitPhase.PENDING, 1000), pending, T1);
    assertThat(UnitStatuses.sameWait(null, shortage)).as("a unit never explained").isFalse();

    unit.setStatus(UnitStatuses.waiting(unit, shortage(UnitPhase.PENDING, 3000), pending, T0));
    UnitStatus backingOff = new UnitStatus(spec(), UnitPhase.BACKOFF, 1, T1, null, false, false);

    assertThat(UnitStatuses.sameWait(unit.getStatus(), shortage)).as("other amounts only").isTrue();
    assertThat(UnitStatuses.sameWait(
            unit.getStatus(), UnitStatuses.waiting(unit, shortage(UnitPhase.BACKOFF, 1000), backingOff, T1)))
        .as("now backing off").isFalse();
  }

  @Test
  void aPlaceDeepInTheQueueIsRewrittenOnlyWhenItMovedByAQuarter() {
    QueueUnit unit = unit();
    UnitStatus pending = new UnitStatus(spec(), UnitPhase.PENDING, 0, null, null, false, false);
    WaitReason full = new WaitReason.QuotaShortage(new AdmissionResult(false, "nlp", "cpu", 1500, 0));
    unit.setStatus(UnitStatuses.waiting(unit, new WaitingUnit("ns/job", "q", UnitPhase.PENDING, 100, full), pending, T0));

    assertThat(UnitStatuses.changesMoreThanItsWaitMessage(unit.getStatus(),
        UnitStatuses.waiting(unit, new WaitingUnit("ns/job", "q", UnitPhase.PENDING, 99, full), pending, T1)))
        .as("one admission ahead of place 100").isFalse();
    assertThat(UnitStatuses.changesMoreThanItsWaitMessage(unit.getStatus(),
        UnitStatuses.waiting(unit, new WaitingUnit("ns/job", "q", UnitPhase.PENDING, 75, full), pending, T1)))
        .as("a quarter of the way to the head").isTrue();
  }

  @Test
  void placesNearTheHeadAreKeptExact() {
    assertThat(UnitStatuses.positionMovedMuch(10, 9)).isTrue();
    assertThat(UnitStatuses.positionMovedMuch(12, 10)).isTrue();
    assertThat(UnitStatuses.positionMovedMuch(12, 11)).isFalse();
    assertThat(UnitStatuses.positionMovedMuch(40, 30)).isTrue();
    assertThat(UnitStatuses.positionMovedMuch(40, 50)).isTrue();
    assertThat(UnitStatuses.positionMovedMuch(40, 41)).isFalse();
    assertThat(UnitStatuses.positionMovedMuch(null, 41)).isTrue();
    assertThat(UnitStatuses.positionMovedMuch(41, null)).isTrue();
  }

  /**
   * The write count the rule is for: a queue of 1,000 units emptied from the head one admission
   * at a time.
   */
  @Test
  void emptyingALongQueueFromTheHeadCostsFarFewerWritesThanPlacesMoved() {
    int units = 1_000;
    int[] recorded = new int[units];
    long writes = 0;
    long moves = 0;
    for (int i = 0; i < units; i++) {
      recorded[i] = i + 1;
    }
    for (int admitted = 1; admitted < units; admitted++) {
      for (int i = admitted; i < units; i++) {
        int place = i - admitted + 1;
        moves++;
        if (UnitStatuses.positionMovedMuch(recorded[i], place)) {
          recorded[i] = place;
          writes++;
        }
      }
    }
    assertThat(moves).isEqualTo(499_500);
    assertThat(writes).isLessThan(30_000);
  }

  private static WaitingUnit shortage(UnitPhase phase, long available) {
    return new WaitingUnit("ns/job", "q", phase, 1,
        new WaitReason.QuotaShortage(new AdmissionResult(false, "nlp", "cpu", 1500, available)));
  }

  @Test
  void aConditionKeepsItsTransitionTimeUntilItsStatusFlips() {
    List<Condition> first = UnitStatuses.set(null, "Admitted", false, "Pending", "a", T0);
    List<Condition> same = UnitStatuses.set(first, "Admitted", false, "Pending", "b", T1);
    List<Condition> flipped = UnitStatuses.set(same, "Admitted", true, "Admitted", "c", T1);

    assertThat(same.get(0).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(flipped.get(0).getLastTransitionTime()).isEqualTo("2026-01-01T00:01:00Z");
  }

  private static UnitSpec spec() {
    return new UnitSpec("ns/job", "q", "nlp", 0, T0, ResourceVector.of("cpu", 1500), 1);
  }

  private static QueueUnit unit() {
    QueueUnit unit = new QueueUnit();
    unit.getMetadata().setName("job");
    unit.getMetadata().setNamespace("ns");
    PodSet podSet = new PodSet();
    podSet.setName("main");
    podSet.setCount(3);
    podSet.setTemplate(
        new PodTemplateSpecBuilder()
            .withNewSpec()
            .addNewContainer()
            .withName("c")
            .withNewResources()
            .addToRequests("cpu", new Quantity("500m"))
            .endResources()
            .endContainer()
            .endSpec()
            .build());
    unit.setSpec(new io.koord4j.api.queue.QueueUnitSpec());
    unit.getSpec().setPodSet(List.of(podSet));
    unit.getSpec().setResource(Map.of("cpu", new Quantity("1500m")));
    return unit;
  }
}
