package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * KubeRay's RayCluster, held through {@code spec.suspend}. A cluster never finishes by itself; it
 * runs once KubeRay reports it {@code ready}, and its quota returns when it is deleted.
 *
 * <p>A cluster created by a RayJob (owned by it) is skipped: the RayJob is queued as a whole, and
 * its cluster carries the RayJob's labels, queue label included.
 */
public final class RayClusterAdapter implements SuspendedInSpec<RayClusterAdapter.RayCluster> {

  /** A RayCluster as a generic resource, typed only so that it can be watched by kind. */
  @Group("ray.io")
  @Version("v1")
  @Kind("RayCluster")
  public static final class RayCluster extends GenericKubernetesResource implements Namespaced {}

  @Override
  public Class<RayCluster> type() {
    return RayCluster.class;
  }

  @Override
  public boolean isSkipped(RayCluster cluster) {
    List<OwnerReference> owners = cluster.getMetadata().getOwnerReferences();
    boolean ownedByRayJob =
        owners != null && owners.stream().anyMatch(owner -> RayJobAdapter.KIND.equals(owner.getKind()));
    return ownedByRayJob || SuspendedInSpec.super.isSkipped(cluster);
  }

  @Override
  public RayCluster editPodTemplates(RayCluster cluster, UnaryOperator<PodTemplateSpec> edit) {
    RayCluster copy = JobFields.copy(cluster);
    RayClusterSpecs.editTemplates(JobFields.spec(copy), "spec", edit);
    return copy;
  }

  @Override
  public List<PodSetInfo> podSets(RayCluster cluster) {
    return RayClusterSpecs.podSets(JobFields.spec(cluster), "spec");
  }

  @Override
  public JobPhase status(RayCluster cluster) {
    String state = JobFields.status(cluster).flatMap(s -> JobFields.string(s, "state")).orElse("");
    return state.equals("ready") ? JobPhase.RUNNING : JobPhase.PENDING;
  }
}
