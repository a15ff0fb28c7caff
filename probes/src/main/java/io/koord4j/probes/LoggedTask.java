package io.koord4j.probes;

import org.slf4j.Logger;

/** A task of a long-lived loop or event handler: its failure is logged, and the loop carries on. */
public final class LoggedTask {
  private LoggedTask() {}

  /** {@code task}, logging a runtime failure as an error with {@code failure} to {@code log}. */
  public static Runnable of(Logger log, String failure, Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        log.error(failure, e);
      }
    };
  }
}
