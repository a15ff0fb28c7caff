package io.koord4j.queue.core;

import io.koord4j.quota.AdmittedUnit;
import java.time.Instant;
import java.util.Comparator;

/**
 * The core's mutable record of one unit. Fields that order it in a sorted set (the spec's
 * priority and arrival, the backoff deadline) change only while it is out of those sets.
 */
final class QueuedUnit {

  /** Queue order: higher priority first, then earlier arrival, then id. */
  static final Comparator<QueuedUnit> QUEUE_ORDER =
      Comparator.comparingInt((QueuedUnit u) -> -u.spec.priority())
          .thenComparing(u -> u.spec.arrival())
          .thenComparing(QueuedUnit::id);

  static final Comparator<QueuedUnit> BACKOFF_ORDER =
      Comparator.comparing((QueuedUnit u) -> u.backoffUntil).thenComparing(QueuedUnit::id);

  UnitSpec spec;
  UnitPhase phase = UnitPhase.PENDING;
  int attempts;
  Instant backoffUntil;
  Instant admittedAt;
  boolean podsRunning;
  /** Admitted only until its terminating pods are gone: not a victim (see holdUntilReleased). */
  boolean releasing;

  QueuedUnit(UnitSpec spec) {
    this.spec = spec;
  }

  String id() {
    return spec.id();
  }

  String quota() {
    return spec.quota();
  }

  boolean isWaiting() {
    return phase == UnitPhase.PENDING || phase == UnitPhase.BACKOFF;
  }

  /** Admitted and may be evicted: not already stopping. */
  boolean isPreemptable() {
    return phase == UnitPhase.ADMITTED && !releasing;
  }

  AdmittedUnit asAdmitted() {
    return new AdmittedUnit(id(), quota(), spec.priority(), admittedAt, spec.request());
  }

  UnitStatus status(boolean preempting) {
    return new UnitStatus(spec, phase, attempts, backoffUntil, admittedAt, podsRunning, preempting);
  }
}
