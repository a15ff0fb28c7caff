package io.koord4j.visibility;

import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;

/** How the plugin groups QueueUnit phases: waiting, admitted (quota held), running, finished. */
public final class UnitPhases {
  private UnitPhases() {}

  public static String phase(QueueUnit unit) {
    String phase = unit.getStatus() == null ? null : unit.getStatus().getPhase();
    return phase == null ? QueueUnitPhase.ENQUEUED : phase;
  }

  /** Still waiting for admission: Enqueued, backing off, or Reserved while checks run. */
  public static boolean isPending(QueueUnit unit) {
    String phase = phase(unit);
    return QueueUnitPhase.ENQUEUED.equals(phase)
        || QueueUnitPhase.TIMEOUT_BACKOFF.equals(phase)
        || QueueUnitPhase.RESERVED.equals(phase);
  }

  public static boolean isAdmitted(QueueUnit unit) {
    return QueueUnitPhase.DEQUEUED.equals(phase(unit));
  }

  public static boolean isRunning(QueueUnit unit) {
    return QueueUnitPhase.RUNNING.equals(phase(unit));
  }
}
