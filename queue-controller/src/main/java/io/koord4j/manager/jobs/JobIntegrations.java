package io.koord4j.manager.jobs;

import io.koord4j.jobs.BatchJobAdapter;
import io.koord4j.jobs.MPIJobAdapter;
import io.koord4j.jobs.PyTorchJobAdapter;
import io.koord4j.jobs.RayClusterAdapter;
import io.koord4j.jobs.RayJobAdapter;
import io.koord4j.jobs.SparkApplicationAdapter;
import io.koord4j.jobs.TFJobAdapter;
import io.koord4j.jobs.WorkflowAdapter;
import java.time.Clock;
import java.util.List;

/** The job kinds the manager queues: one line per kind. */
public final class JobIntegrations {
  private JobIntegrations() {}

  /** Each entry is an anonymous subclass so that the operator SDK can see its job type. */
  public static List<JobReconciler<?>> builtIn(Clock clock) {
    return List.of(
        new JobReconciler<>(new BatchJobAdapter(), clock) {},
        new JobReconciler<>(new TFJobAdapter(), clock) {},
        new JobReconciler<>(new PyTorchJobAdapter(), clock) {},
        new JobReconciler<>(new MPIJobAdapter(), clock) {},
        new JobReconciler<>(new SparkApplicationAdapter(), clock) {},
        new JobReconciler<>(new RayJobAdapter(), clock) {},
        new JobReconciler<>(new RayClusterAdapter(), clock) {},
        new JobReconciler<>(new WorkflowAdapter(), clock) {});
  }
}
