package io.koord4j.manager.jobs;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.koord4j.jobs.BatchJobAdapter;
import io.koord4j.jobs.MPIJobAdapter;
import io.koord4j.jobs.MPIJobAdapter.MPIJob;
import io.koord4j.jobs.PyTorchJobAdapter;
import io.koord4j.jobs.PyTorchJobAdapter.PyTorchJob;
import io.koord4j.jobs.RayClusterAdapter;
import io.koord4j.jobs.RayClusterAdapter.RayCluster;
import io.koord4j.jobs.RayJobAdapter;
import io.koord4j.jobs.RayJobAdapter.RayJob;
import io.koord4j.jobs.SparkApplicationAdapter;
import io.koord4j.jobs.SparkApplicationAdapter.SparkApplication;
import io.koord4j.jobs.TFJobAdapter;
import io.koord4j.jobs.TFJobAdapter.TFJob;
import io.koord4j.jobs.WorkflowAdapter;
import io.koord4j.jobs.WorkflowAdapter.Workflow;
import java.time.Clock;
import java.util.List;

/**
 * The job kinds the manager queues: one line per kind. The operator SDK reads each reconciler's
 * job type from its class and names controllers after the class, so every kind has its own
 * named subclass.
 */
public final class JobIntegrations {
  private JobIntegrations() {}

  public static List<JobReconciler<?>> builtIn(Clock clock) {
    return List.of(
        new BatchJobs(clock),
        new TFJobs(clock),
        new PyTorchJobs(clock),
        new MPIJobs(clock),
        new SparkApplications(clock),
        new RayJobs(clock),
        new RayClusters(clock),
        new Workflows(clock));
  }

  static final class BatchJobs extends JobReconciler<Job> { BatchJobs(Clock c) { super(new BatchJobAdapter(), c); } }
  static final class TFJobs extends JobReconciler<TFJob> { TFJobs(Clock c) { super(new TFJobAdapter(), c); } }
  static final class PyTorchJobs extends JobReconciler<PyTorchJob> { PyTorchJobs(Clock c) { super(new PyTorchJobAdapter(), c); } }
  static final class MPIJobs extends JobReconciler<MPIJob> { MPIJobs(Clock c) { super(new MPIJobAdapter(), c); } }
  static final class SparkApplications extends JobReconciler<SparkApplication> { SparkApplications(Clock c) { super(new SparkApplicationAdapter(), c); } }
  static final class RayJobs extends JobReconciler<RayJob> { RayJobs(Clock c) { super(new RayJobAdapter(), c); } }
  static final class RayClusters extends JobReconciler<RayCluster> { RayClusters(Clock c) { super(new RayClusterAdapter(), c); } }
  static final class Workflows extends JobReconciler<Workflow> { Workflows(Clock c) { super(new WorkflowAdapter(), c); } }
}
