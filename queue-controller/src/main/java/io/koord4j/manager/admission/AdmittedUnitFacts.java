package io.koord4j.manager.admission;

import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.queue.core.AdmittedUnit;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** A QueueUnit that holds its admission, as {@link io.koord4j.queue.core.RunLimits} judges it. */
final class AdmittedUnitFacts {
  private AdmittedUnitFacts() {}

  /** Whether the unit's status says it holds its admission: Dequeued, Running, or Reserved. */
  static boolean holdsAdmission(QueueUnit unit) {
    QueueUnitStatus status = unit.getStatus();
    return (UnitStatuses.isAdmitted(status) || UnitStatuses.isReserved(status))
        && status.getLastAllocateTime() != null;
  }

  /**
   * @param unit one that {@link #holdsAdmission}
   * @param readyPods how many of its pods are ready or succeeded now
   */
  static AdmittedUnit of(QueueUnit unit, int readyPods) {
    QueueUnitStatus status = unit.getStatus();
    Integer maxSeconds = unit.getSpec().getMaximumExecutionTimeSeconds();
    return new AdmittedUnit(
        unit.getSpec().isActive(),
        Instant.parse(status.getLastAllocateTime()),
        // Reserved: its admission checks hold the job back, so no pod can be ready yet.
        UnitStatuses.isAdmitted(status),
        UnitStatuses.isTrue(status, QueueUnitConditions.PODS_READY),
        readyPods >= gangSize(unit.getSpec().getPodSet()),
        UnitStatuses.requeues(status),
        maxSeconds == null ? null : Duration.ofSeconds(maxSeconds));
  }

  /** The pods that must be ready: each pod set's minimum, or its count when it has none. */
  private static int gangSize(List<PodSet> podSets) {
    return podSets == null ? 0 : podSets.stream().mapToInt(AdmittedUnitFacts::minimum).sum();
  }

  private static int minimum(PodSet podSet) {
    Integer least = podSet.getMinCount() != null ? podSet.getMinCount() : podSet.getCount();
    return least == null ? 1 : least;
  }
}
