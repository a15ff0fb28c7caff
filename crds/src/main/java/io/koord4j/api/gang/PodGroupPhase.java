package io.koord4j.api.gang;

/** Values of {@code PodGroup.status.phase}. */
public final class PodGroupPhase {
  private PodGroupPhase() {}

  public static final String PENDING = "Pending";
  public static final String PRE_SCHEDULING = "PreScheduling";
  public static final String SCHEDULING = "Scheduling";
  public static final String SCHEDULED = "Scheduled";
  public static final String RUNNING = "Running";
  public static final String FINISHED = "Finished";
  public static final String FAILED = "Failed";
}
