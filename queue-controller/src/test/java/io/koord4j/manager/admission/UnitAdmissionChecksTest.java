package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.kueue.PodSetUpdate;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueAdmissionCheck;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.api.queue.QueueUnitStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A unit of a queue that names admission checks: Reserved, then started, retried or ended. */
class UnitAdmissionChecksTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:01:00Z");

  @Test
  void aQueueRequiresTheChecksWhoseSelectorMatchesTheUnit() {
    Queue queue = new Queue();
    queue.setSpec(new QueueSpec());
    queue.getSpec().setAdmissionChecks(List.of(
        check("gang", null),
        check("gpu-only", new LabelSelectorBuilder().addToMatchLabels("kind", "gpu").build()),
        check("not-cpu", new LabelSelectorBuilder().addNewMatchExpression()
            .withKey("kind").withOperator("NotIn").withValues("cpu").endMatchExpression().build())));

    assertThat(QueueChecks.required(queue, unitLabelled(Map.of("kind", "gpu"))))
        .containsExactly("gang", "gpu-only", "not-cpu");
    assertThat(QueueChecks.required(queue, unitLabelled(Map.of("kind", "cpu")))).containsExactly("gang");
    assertThat(QueueChecks.required(null, unitLabelled(Map.of()))).isEmpty();
  }

  @Test
  void aReservedUnitHoldsItsQuotaWithEveryCheckPendingAndItsJobNotAdmitted() {
    QueueUnitStatus status = UnitStatuses.reserved(unit(), "team-a", List.of("gang"), T0);

    assertThat(status.getPhase()).isEqualTo(QueueUnitPhase.RESERVED);
    assertThat(UnitStatuses.isReserved(status)).isTrue();
    assertThat(UnitStatuses.isAdmitted(status)).as("the job stays suspended").isFalse();
    assertThat(condition(status, QueueUnitConditions.QUOTA_RESERVED).getStatus()).isEqualTo("True");
    assertThat(condition(status, QueueUnitConditions.ADMITTED).getStatus()).isEqualTo("False");
    assertThat(status.getAdmissionChecks()).singleElement().satisfies(check -> {
      assertThat(check.getName()).isEqualTo("gang");
      assertThat(check.getState()).isEqualTo(AdmissionCheckState.PENDING);
      assertThat(check.getLastTransitionTime()).isEqualTo(T0.toString());
    });
  }

  @Test
  void everyCheckReadyStartsTheJobWhereTheChecksPlacedTheGang() {
    QueueUnit unit = reservedUnit();
    AdmissionCheckState ready = state("gang", AdmissionCheckState.READY, "all 2 pods fit now");
    PodSetUpdate update = new PodSetUpdate();
    update.setName("main");
    update.setNodeSelector(Map.of("rack", "r2"));
    ready.setPodSetUpdates(List.of(update));

    QueueUnitStatus status = UnitStatuses.checked(unit, List.of(ready), T1);

    assertThat(status.getPhase()).isEqualTo(QueueUnitPhase.DEQUEUED);
    assertThat(UnitStatuses.isAdmitted(status)).isTrue();
    assertThat(condition(status, QueueUnitConditions.ADMITTED).getStatus()).isEqualTo("True");
    assertThat(UnitStatuses.checkedNodeSelector(status)).containsExactly(Map.entry("rack", "r2"));
  }

  @Test
  void aPendingCheckKeepsTheUnitReservedWithTheCheckMessage() {
    QueueUnitStatus status = UnitStatuses.checked(
        reservedUnit(), List.of(state("gang", AdmissionCheckState.PENDING, "waiting for room: ...")), T1);

    assertThat(status.getPhase()).isEqualTo(QueueUnitPhase.RESERVED);
    assertThat(status.getAdmissionChecks()).singleElement()
        .satisfies(check -> assertThat(check.getMessage()).isEqualTo("waiting for room: ..."));
  }

  @Test
  void aRejectedCheckReleasesTheQuotaForGoodAndTheJobNeverStarts() {
    QueueUnitStatus status = UnitStatuses.checked(
        reservedUnit(), List.of(state("gang", AdmissionCheckState.REJECTED, "the gang does not fit")), T1);

    assertThat(status.getPhase()).isEqualTo(QueueUnitPhase.FAILED);
    assertThat(UnitStatuses.isFinished(status)).as("the queue forgets it and frees its quota").isTrue();
    assertThat(status.getAdmissions()).isNull();
    assertThat(condition(status, QueueUnitConditions.QUOTA_RESERVED).getStatus()).isEqualTo("False");
    assertThat(condition(status, QueueUnitConditions.EVICTED)).satisfies(evicted -> {
      assertThat(evicted.getStatus()).isEqualTo("True");
      assertThat(evicted.getReason()).isEqualTo(QueueUnitConditions.REASON_DEACTIVATED);
      assertThat(evicted.getMessage()).isEqualTo("admission check gang rejected the unit: the gang does not fit");
    });
  }

  @Test
  void aRetryReleasesTheQuotaAndTheUnitBacksOff() {
    QueueUnitStatus status = UnitStatuses.checked(
        reservedUnit(), List.of(state("gang", AdmissionCheckState.RETRY, "no room after 300 s")), T1);

    assertThat(status.getPhase()).isEqualTo(QueueUnitPhase.TIMEOUT_BACKOFF);
    assertThat(UnitStatuses.awaitsRelease(status)).isFalse();
    assertThat(UnitStatuses.awaitsBackoff(status)).as("the queue requeues it after a backoff").isTrue();
  }

  @Test
  void aReservedUnitIsDecidedAsAWorkloadOfItsJob() {
    QueueUnit unit = reservedUnit();

    Workload workload = new UnitAdmissionChecks().waiting(unit, Set.of("gang")).orElseThrow().workload();

    assertThat(workload.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getUid()).isEqualTo("job-uid"));
    assertThat(workload.getSpec().getPodSets()).singleElement().satisfies(podSet -> {
      assertThat(podSet.getName()).isEqualTo("main");
      assertThat(podSet.getCount()).isEqualTo(2);
    });
    assertThat(new UnitAdmissionChecks().waiting(unit, Set.of("someone-elses"))).isEmpty();
    unit.getStatus().setPhase(QueueUnitPhase.ENQUEUED);
    assertThat(new UnitAdmissionChecks().waiting(unit, Set.of("gang"))).as("holds no quota").isEmpty();
  }

  private static QueueAdmissionCheck check(String name, LabelSelector selector) {
    QueueAdmissionCheck check = new QueueAdmissionCheck();
    check.setName(name);
    check.setLabelSelector(selector);
    return check;
  }

  private static AdmissionCheckState state(String name, String state, String message) {
    AdmissionCheckState check = new AdmissionCheckState();
    check.setName(name);
    check.setState(state);
    check.setMessage(message);
    check.setLastTransitionTime(T1.toString());
    return check;
  }

  private static Condition condition(QueueUnitStatus status, String type) {
    return UnitStatuses.find(status.getConditions(), type);
  }

  private static QueueUnit reservedUnit() {
    QueueUnit unit = unit();
    unit.setStatus(UnitStatuses.reserved(unit, "team-a", List.of("gang"), T0));
    return unit;
  }

  private static QueueUnit unitLabelled(Map<String, String> labels) {
    QueueUnit unit = unit();
    unit.getMetadata().setLabels(labels);
    return unit;
  }

  private static QueueUnit unit() {
    QueueUnit unit = new QueueUnit();
    unit.setMetadata(new ObjectMetaBuilder().withName("train").withNamespace("team")
        .withCreationTimestamp("2026-01-01T00:00:00Z")
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
            .withName("train").withUid("job-uid").withController(true).build())
        .build());
    PodSet podSet = new PodSet();
    podSet.setName("main");
    podSet.setCount(2);
    podSet.setTemplate(new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("work")
        .withNewResources().addToRequests("nvidia.com/gpu", new Quantity("8")).endResources()
        .endContainer().endSpec().build());
    QueueUnitSpec spec = new QueueUnitSpec();
    spec.setQueue("team-a");
    spec.setPodSet(List.of(podSet));
    unit.setSpec(spec);
    return unit;
  }
}
