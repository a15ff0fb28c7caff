package io.koord4j.manager.admission;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.kueue.WorkloadPodSet;
import io.koord4j.api.kueue.WorkloadSpec;
import io.koord4j.api.kueue.WorkloadStatus;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.kueue.CheckedObjects;
import io.koord4j.kueue.WaitingWorkload;
import io.koord4j.manager.support.PodSets;
import io.koord4j.manager.support.QueueUnitStatusRecorder;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * koord4j's QueueUnits as the gang-feasibility check sees them: a Reserved unit waits for its
 * checks, a started one (Dequeued, Running) keeps the room of its pods not bound yet. Decisions
 * are written to the unit's status with its resourceVersion, so a unit the admission loop changed
 * meanwhile is decided again on the next pass.
 */
public final class UnitAdmissionChecks extends CheckedObjects<QueueUnit> {
  private static final Set<String> WITH_QUOTA =
      Set.of(QueueUnitPhase.RESERVED, QueueUnitPhase.DEQUEUED, QueueUnitPhase.RUNNING);

  /**
   * Not Kueue's workloads: the admission loop reserved their quota already, and Kueue must not
   * count on this controller for its own.
   */
  public UnitAdmissionChecks() {
    super("queue units", informers -> informers.of(QueueUnit.class), false);
  }

  @Override
  public Optional<WaitingWorkload> waiting(QueueUnit unit, Set<String> ourChecks) {
    QueueUnitStatus status = unit.getStatus();
    if (status == null || status.getAdmissionChecks() == null || !WITH_QUOTA.contains(status.getPhase())) {
      return Optional.empty();
    }
    return WaitingWorkload.of(asWorkload(unit), ourChecks);
  }

  @Override
  public void write(KubernetesClient client, QueueUnit unit, List<AdmissionCheckState> checks, Instant now) {
    if (!UnitStatuses.isReserved(unit.getStatus())) {
      return;
    }
    QueueUnitStatus desired = UnitStatuses.checked(unit, checks, now);
    QueueUnitStatusRecorder recorder = new QueueUnitStatusRecorder(client);
    try {
      if (recorder.record(unit, desired, now).isEmpty()) {
        return;
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404 && e.getCode() != 409) {
        throw e;
      }
      // Gone, or changed meanwhile: its informer event brings the next pass.
      return;
    }
    if (QueueUnitPhase.FAILED.equals(desired.getPhase())) {
      recorder.event(unit, "Warning", UnitStatuses.REASON_CHECK_REJECTED, desired.getMessage(), now);
    }
  }

  /** The unit as a workload holding quota: its pod sets, owner (the job) and check entries. */
  static Workload asWorkload(QueueUnit unit) {
    Workload workload = podSetsOf(unit);
    WorkloadStatus status = new WorkloadStatus();
    status.setConditions(List.of(new ConditionBuilder()
        .withType(WorkloadStatus.QUOTA_RESERVED).withStatus("True").build()));
    status.setAdmissionChecks(unit.getStatus().getAdmissionChecks());
    workload.setStatus(status);
    return workload;
  }

  /** The unit as a workload of its pod sets, owner (the job) and priority, without a status. */
  static Workload podSetsOf(QueueUnit unit) {
    Workload workload = new Workload();
    workload.setMetadata(new ObjectMetaBuilder()
        .withName(unit.getMetadata().getName())
        .withNamespace(unit.getMetadata().getNamespace())
        .withCreationTimestamp(unit.getMetadata().getCreationTimestamp())
        .withOwnerReferences(unit.getMetadata().getOwnerReferences())
        .build());
    WorkloadSpec spec = new WorkloadSpec();
    spec.setPriority(unit.getSpec().getPriority());
    spec.setPodSets(unit.getSpec().getPodSet() == null ? List.of()
        : unit.getSpec().getPodSet().stream().map(UnitAdmissionChecks::podSet).toList());
    workload.setSpec(spec);
    return workload;
  }

  private static WorkloadPodSet podSet(PodSet unitPodSet) {
    return PodSets.filled(new WorkloadPodSet(), unitPodSet.getName(), unitPodSet.getCount(),
        unitPodSet.getMinCount(), unitPodSet.getTemplate());
  }
}
