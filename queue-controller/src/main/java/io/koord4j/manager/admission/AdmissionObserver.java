package io.koord4j.manager.admission;

import java.time.Duration;

/** Told of each admission, e.g. to record how long units wait. */
@FunctionalInterface
public interface AdmissionObserver {
  /**
   * @param queue the unit's queue, by {@link QueueKeys key} (namespace/name)
   * @param waited from the unit's creation (its enqueue) to its admission */
  void admitted(String queue, Duration waited);

  /** A preemption victim of the queue did not stop in time; preemption went on without it. */
  default void victimTimedOut(String queue) {}

  /**
   * An admission pass ended.
   *
   * @param took the whole pass: the core's decisions and the writes and events that record them
   * @param writes status writes the pass made
   */
  default void passed(Duration took, int writes) {}
}
