package io.koord4j.api.queue;

/** Condition types and Evicted reasons of a queue unit; the names are Kueue's. */
public final class QueueUnitConditions {
  private QueueUnitConditions() {}

  public static final String QUOTA_RESERVED = "QuotaReserved";
  public static final String ADMITTED = "Admitted";
  public static final String PODS_READY = "PodsReady";
  public static final String FINISHED = "Finished";
  public static final String EVICTED = "Evicted";

  public static final String REASON_DEACTIVATED = "Deactivated";
  public static final String REASON_BACKOFF_TIMEOUT = "BackoffTimeout";
  public static final String REASON_PREEMPTED = "Preempted";
  /** koord4j's own: the job's pod counts or requests changed after its quota was reserved. */
  public static final String REASON_JOB_CHANGED = "JobChanged";
  public static final String REASON_MAXIMUM_EXECUTION_TIME_EXCEEDED =
      "MaximumExecutionTimeExceeded";
  /** Its pods were not all ready in time after admission; it is requeued. */
  public static final String REASON_PODS_READY_TIMEOUT = "PodsReadyTimeout";
}
