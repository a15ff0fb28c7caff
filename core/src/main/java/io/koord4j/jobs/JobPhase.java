package io.koord4j.jobs;

/** Where a job is in its life, independent of its kind. */
public enum JobPhase {
  /** Not started yet, or suspended with no pod running. */
  PENDING,
  /** At least one pod is running. */
  RUNNING,
  /** Finished successfully. */
  SUCCEEDED,
  /** Finished unsuccessfully. */
  FAILED;

  /** Whether the job has ended and will run no more pods. */
  public boolean isFinished() {
    return this == SUCCEEDED || this == FAILED;
  }
}
