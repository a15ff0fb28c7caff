package io.koord4j.manager.jobs;

import io.koord4j.jobs.BatchJobAdapter;
import java.time.Clock;
import java.util.List;

/** The job kinds the manager queues: one line per kind. */
public final class JobIntegrations {
  private JobIntegrations() {}

  /** Each entry is an anonymous subclass so that the operator SDK can see its job type. */
  public static List<JobReconciler<?>> builtIn(Clock clock) {
    return List.of(new JobReconciler<>(new BatchJobAdapter(), clock) {});
  }
}
