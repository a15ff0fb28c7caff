package io.koord4j.queue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The limits an admitted unit runs under, as Kueue sets them: an inactive unit is evicted and
 * deactivated; so is one admitted for longer than its {@code maximumExecutionTimeSeconds}; one
 * whose pods are not all ready within the {@link WaitForPodsReady#timeout} is evicted and
 * requeued with a growing delay, and deactivated once it went past the requeue limit.
 *
 * <p>Pure: the verdict follows from the unit's stored facts and the clock alone. Once the
 * eviction is stored the unit no longer holds its admission, so no verdict is carried out twice.
 */
public final class RunLimits {
  private RunLimits() {}

  public static RunVerdict review(AdmittedUnit unit, WaitForPodsReady settings, Instant now) {
    if (!unit.active()) {
      return new RunVerdict.Deactivate(
          RunVerdict.Cause.INACTIVE, "deactivated: spec.active is false");
    }
    Optional<Instant> executionEnds = executionEnds(unit);
    if (executionEnds.isPresent() && !now.isBefore(executionEnds.get())) {
      return new RunVerdict.Deactivate(
          RunVerdict.Cause.MAXIMUM_EXECUTION_TIME,
          "deactivated: admitted for longer than its maximumExecutionTimeSeconds ("
              + unit.maximumExecutionTime().toSeconds() + ")");
    }
    if (unit.podsReadyNow() && !unit.podsReadyRecorded()) {
      return new RunVerdict.RecordPodsReady();
    }
    Optional<Instant> podsReadyBy = podsReadyBy(unit, settings);
    if (podsReadyBy.isPresent() && !now.isBefore(podsReadyBy.get())) {
      return timedOut(unit.requeues() + 1, settings, now);
    }
    return new RunVerdict.Keep(
        Stream.of(executionEnds, podsReadyBy).flatMap(Optional::stream).min(Instant::compareTo));
  }

  private static RunVerdict timedOut(int requeue, WaitForPodsReady settings, Instant now) {
    String late = "its pods were not all ready within " + seconds(settings.timeout()) + " of admission";
    if (settings.exceedsLimit(requeue)) {
      return new RunVerdict.Deactivate(
          RunVerdict.Cause.REQUEUE_LIMIT,
          "deactivated: " + late + " after " + (requeue - 1) + " requeues, the limit");
    }
    Instant requeueAt = now.plus(settings.delay(requeue));
    return new RunVerdict.Requeue(
        requeue, requeueAt, "evicted: " + late + "; requeue " + requeue + " at " + requeueAt);
  }

  private static Optional<Instant> executionEnds(AdmittedUnit unit) {
    return Optional.ofNullable(unit.maximumExecutionTime()).map(unit.admittedAt()::plus);
  }

  private static Optional<Instant> podsReadyBy(AdmittedUnit unit, WaitForPodsReady settings) {
    return settings.timeout() != null && unit.awaitsPodsReady()
        ? Optional.of(unit.admittedAt().plus(settings.timeout()))
        : Optional.empty();
  }

  private static String seconds(Duration duration) {
    return duration.toSeconds() + " s";
  }
}
