package io.koord4j.manager.jobs;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.koord4j.jobs.BatchJobAdapter;
import io.koord4j.jobs.MPIJob;
import io.koord4j.jobs.MPIJobAdapter;
import io.koord4j.jobs.PyTorchJob;
import io.koord4j.jobs.PyTorchJobAdapter;
import io.koord4j.jobs.RayCluster;
import io.koord4j.jobs.RayClusterAdapter;
import io.koord4j.jobs.RayJob;
import io.koord4j.jobs.RayJobAdapter;
import io.koord4j.jobs.SparkApplication;
import io.koord4j.jobs.SparkApplicationAdapter;
import io.koord4j.jobs.TFJob;
import io.koord4j.jobs.TFJobAdapter;
import io.koord4j.jobs.Workflow;
import io.koord4j.jobs.WorkflowAdapter;
import io.koord4j.manager.support.SharedInformers;
import java.time.Clock;
import java.util.List;

/**
 * The job kinds the manager queues: one line per kind. The operator SDK reads each reconciler's
 * job type from its class and names controllers after the class, so every kind has its own
 * named subclass.
 */
public final class JobIntegrations {
  private JobIntegrations() {}

  public static List<JobReconciler<?>> builtIn(Clock clock, SharedInformers informers) {
    return List.of(
        new BatchJobs(clock, informers),
        new TFJobs(clock, informers),
        new PyTorchJobs(clock, informers),
        new MPIJobs(clock, informers),
        new SparkApplications(clock, informers),
        new RayJobs(clock, informers),
        new RayClusters(clock, informers),
        new Workflows(clock, informers));
  }

  static final class BatchJobs extends JobReconciler<Job> { BatchJobs(Clock c, SharedInformers i) { super(new BatchJobAdapter(), c, i); } }
  static final class TFJobs extends JobReconciler<TFJob> { TFJobs(Clock c, SharedInformers i) { super(new TFJobAdapter(), c, i); } }
  static final class PyTorchJobs extends JobReconciler<PyTorchJob> { PyTorchJobs(Clock c, SharedInformers i) { super(new PyTorchJobAdapter(), c, i); } }
  static final class MPIJobs extends JobReconciler<MPIJob> { MPIJobs(Clock c, SharedInformers i) { super(new MPIJobAdapter(), c, i); } }
  static final class SparkApplications extends JobReconciler<SparkApplication> { SparkApplications(Clock c, SharedInformers i) { super(new SparkApplicationAdapter(), c, i); } }
  static final class RayJobs extends JobReconciler<RayJob> { RayJobs(Clock c, SharedInformers i) { super(new RayJobAdapter(), c, i); } }
  static final class RayClusters extends JobReconciler<RayCluster> { RayClusters(Clock c, SharedInformers i) { super(new RayClusterAdapter(), c, i); } }
  static final class Workflows extends JobReconciler<Workflow> { Workflows(Clock c, SharedInformers i) { super(new WorkflowAdapter(), c, i); } }
}
