package io.koord4j.api.queue;

/**
 * Values of {@code QueueUnit.status.phase}: Enqueued, then Reserved while admission checks are
 * pending, Dequeued, Running, and finally Succeed or Failed; TimeoutBackoff until requeued.
 */
public final class QueueUnitPhase {
  private QueueUnitPhase() {}

  public static final String ENQUEUED = "Enqueued";
  public static final String RESERVED = "Reserved";
  public static final String DEQUEUED = "Dequeued";
  public static final String RUNNING = "Running";
  public static final String SUCCEED = "Succeed";
  public static final String FAILED = "Failed";
  public static final String TIMEOUT_BACKOFF = "TimeoutBackoff";
}
