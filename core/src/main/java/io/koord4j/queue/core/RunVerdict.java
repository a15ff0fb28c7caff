package io.koord4j.queue.core;

import java.time.Instant;
import java.util.Optional;

/** What becomes of an admitted unit, as {@link RunLimits} decides. */
public sealed interface RunVerdict {

  /** It stays admitted; it is to be judged again by {@code reviewAt}, if a deadline is ahead. */
  record Keep(Optional<Instant> reviewAt) implements RunVerdict {}

  /** Its pods are all ready: recorded once, so that the timeout no longer applies. */
  record RecordPodsReady() implements RunVerdict {}

  /**
   * Its pods were not ready in time: it is evicted, its quota released once its job stopped, and
   * tried again at {@code requeueAt}.
   *
   * @param requeues its requeue count, this one included
   */
  record Requeue(int requeues, Instant requeueAt, String message) implements RunVerdict {}

  /** It is evicted and deactivated: never admitted again until someone sets it active. */
  record Deactivate(Cause cause, String message) implements RunVerdict {}

  /** Why a unit is deactivated. */
  enum Cause {
    /** Its {@code spec.active} is false. */
    INACTIVE,
    /** It was admitted for longer than its maximum execution time. */
    MAXIMUM_EXECUTION_TIME,
    /** Its pods timed out once more after as many requeues as allowed. */
    REQUEUE_LIMIT
  }
}
