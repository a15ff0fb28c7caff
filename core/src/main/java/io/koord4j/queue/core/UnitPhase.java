package io.koord4j.queue.core;

/** Where a unit is in its life inside the core. */
public enum UnitPhase {
  /** Waiting in its queue and tried in every pass. */
  PENDING,
  /** Requeued and not tried until its backoff expires; its request still counts as demand. */
  BACKOFF,
  /** Its request is counted as used by its quota. */
  ADMITTED,
  /** Done; its quota is released and it is kept only until it is removed. */
  FINISHED
}
