package io.koord4j.manager.it;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapter;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.jobs.PodSetInfo;
import java.util.List;
import java.util.Map;

/** Jobs of any queued kind, read and held through the kind's adapter. */
final class QueuedJobs {
  private QueuedJobs() {}

  /** A job from its YAML body, named, in the namespace, labelled with its quota. */
  static GenericKubernetesResource of(
      String apiVersion, String kind, String name, String namespace, String quota, String body) {
    GenericKubernetesResource job = Serialization.unmarshal(body, GenericKubernetesResource.class);
    job.setApiVersion(apiVersion);
    job.setKind(kind);
    if (job.getMetadata() == null) {
      job.setMetadata(new ObjectMeta());
    }
    job.getMetadata().setName(name);
    job.getMetadata().setNamespace(namespace);
    job.getMetadata().setLabels(Map.of(WellKnown.QUOTA_NAME, quota));
    return job;
  }

  static JobAdapter<?> adapterOf(GenericKubernetesResource job) {
    return JobAdapters.builtIn().find(job.getApiVersion(), job.getKind()).orElseThrow();
  }

  /** The job suspended, as the webhook stores a queued job. */
  static GenericKubernetesResource suspended(GenericKubernetesResource job) {
    return suspended(adapterOf(job), job);
  }

  static boolean isSuspended(GenericKubernetesResource job) {
    return isSuspended(adapterOf(job), job);
  }

  static List<PodSetInfo> podSets(GenericKubernetesResource job) {
    return podSets(adapterOf(job), job);
  }

  private static <T extends HasMetadata> GenericKubernetesResource suspended(
      JobAdapter<T> adapter, GenericKubernetesResource job) {
    return Serialization.jsonMapper().convertValue(adapter.suspend(typed(adapter, job)), GenericKubernetesResource.class);
  }

  private static <T extends HasMetadata> boolean isSuspended(JobAdapter<T> adapter, GenericKubernetesResource job) {
    return adapter.isSuspended(typed(adapter, job));
  }

  private static <T extends HasMetadata> List<PodSetInfo> podSets(JobAdapter<T> adapter, GenericKubernetesResource job) {
    return adapter.podSets(typed(adapter, job));
  }

  private static <T extends HasMetadata> T typed(JobAdapter<T> adapter, GenericKubernetesResource job) {
    return Serialization.jsonMapper().convertValue(job, adapter.type());
  }
}
