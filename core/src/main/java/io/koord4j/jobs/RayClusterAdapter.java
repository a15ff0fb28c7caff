package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * KubeRay's RayCluster, held through {@code spec.suspend}. A cluster never finishes by itself; it
 * runs once KubeRay reports it {@code ready}, and its quota returns when it is deleted.
 *
 * <p>A cluster created by a RayJob (owned by it) is skipped: the RayJob is queued as a whole, and
 * its cluster carries the RayJob's labels, queue label included.
 */
public final class RayClusterAdapter implements SuspendedInSpec<RayCluster> {

  private static final String RAY_JOB = HasMetadata.getKind(RayJob.class);

  @Override
  public Class<RayCluster> type() {
    return RayCluster.class;
  }

  @Override
  public boolean isSkipped(ObjectMeta metadata) {
    List<OwnerReference> owners = metadata == null ? null : metadata.getOwnerReferences();
    boolean ownedByRayJob =
        owners != null && owners.stream().anyMatch(owner -> RAY_JOB.equals(owner.getKind()));
    return ownedByRayJob || SuspendedInSpec.super.isSkipped(metadata);
  }

  @Override
  public RayCluster editPodTemplates(RayCluster cluster, UnaryOperator<PodTemplateSpec> edit) {
    return JobFields.editedCopy(cluster, copy -> RayClusterSpecs.editTemplates(JobFields.spec(copy), "spec", edit));
  }

  @Override
  public List<PodSetInfo> podSets(RayCluster cluster) {
    return RayClusterSpecs.podSets(JobFields.spec(cluster), "spec");
  }

  @Override
  public JobPhase status(RayCluster cluster) {
    return JobFields.statusText(cluster, "state").equals("ready") ? JobPhase.RUNNING : JobPhase.PENDING;
  }
}
