package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * KubeRay's RayJob, held through {@code spec.suspend} (KubeRay deletes the job's cluster while it
 * is suspended). Its pods are those of the cluster it creates from {@code spec.rayClusterSpec};
 * a RayJob that runs on an existing cluster ({@code spec.clusterSelector}) has none to queue.
 *
 * <p>Finished when {@code status.jobDeploymentStatus} is Complete (succeeded if
 * {@code status.jobStatus} is SUCCEEDED) or Failed.
 */
public final class RayJobAdapter implements SuspendedInSpec<RayJob> {

  private static final String CLUSTER_SPEC_PATH = "spec.rayClusterSpec";

  @Override
  public Class<RayJob> type() {
    return RayJob.class;
  }

  @Override
  public RayJob editPodTemplates(RayJob job, UnaryOperator<PodTemplateSpec> edit) {
    return JobFields.editedCopy(job, copy -> RayClusterSpecs.editTemplates(clusterSpec(copy), CLUSTER_SPEC_PATH, edit));
  }

  @Override
  public List<PodSetInfo> podSets(RayJob job) {
    return RayClusterSpecs.podSets(clusterSpec(job), CLUSTER_SPEC_PATH);
  }

  @Override
  public JobPhase status(RayJob job) {
    return switch (JobFields.statusText(job, "jobDeploymentStatus")) {
      case "Complete" ->
          JobFields.statusText(job, "jobStatus").equals("SUCCEEDED")
              ? JobPhase.SUCCEEDED
              : JobPhase.FAILED;
      case "Failed" -> JobPhase.FAILED;
      case "Running" -> JobPhase.RUNNING;
      default -> JobPhase.PENDING;
    };
  }

  private static Map<String, Object> clusterSpec(RayJob job) {
    return JobFields.requiredObject(JobFields.spec(job), "rayClusterSpec", "spec");
  }
}
