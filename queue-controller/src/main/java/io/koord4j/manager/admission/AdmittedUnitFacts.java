package io.koord4j.manager.admission;

import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.queue.core.AdmittedUnit;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** A QueueUnit that holds its admission, as {@link io.koord4j.queue.core.RunLimits} judges it. */
final class AdmittedUnitFacts {
  private AdmittedUnitFacts() {}

  /**
   * @param readyPods how many of its pods are ready or succeeded now
   * @return empty unless the unit's status says it holds its admission: Dequeued, Running, or
   *     Reserved while its admission checks run
   */
  static Optional<AdmittedUnit> of(QueueUnit unit, int readyPods) {
    QueueUnitStatus status = unit.getStatus();
    boolean started = UnitStatuses.isAdmitted(status);
    if (!(started || UnitStatuses.isReserved(status)) || status.getLastAllocateTime() == null) {
      return Optional.empty();
    }
    Integer maxSeconds = unit.getSpec().getMaximumExecutionTimeSeconds();
    return Optional.of(new AdmittedUnit(
        unit.getSpec().isActive(),
        Instant.parse(status.getLastAllocateTime()),
        started,
        UnitStatuses.isTrue(status, QueueUnitConditions.PODS_READY),
        readyPods >= gangSize(unit.getSpec().getPodSet()),
        UnitStatuses.requeues(status),
        maxSeconds == null ? null : Duration.ofSeconds(maxSeconds)));
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
