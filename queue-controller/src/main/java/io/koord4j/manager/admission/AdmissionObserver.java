package io.koord4j.manager.admission;

import java.time.Duration;

/** Told of each admission, e.g. to record how long units wait, and of the status writer's work. */
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
   * @param writes status writes the pass made: its decisions (waits go through the {@link
   *     StatusWriter})
   */
  default void passed(Duration took, int writes) {}

  /** How many units the status writer holds writes for. */
  default void statusBacklog(int units) {}

  /** A status write of the status writer was stored, or refused or failed. */
  default void statusWritten(boolean stored) {}

  /** The status writer sent an event (on the unit and its job). */
  default void eventSent() {}

  /** A queued status was replaced, by a newer one of its unit or by a decision, before it was written. */
  default void statusCoalesced() {}

  /** Queued writes of these many units were dropped, as this replica may no longer lead. */
  default void statusesDropped(int units) {}
}
