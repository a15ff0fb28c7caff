package io.koord4j.manager.jobs;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.jobs.GangShape;
import io.koord4j.jobs.JobAdapter;
import io.koord4j.jobs.PodSetInfo;
import io.koord4j.manager.admission.ExpectedRuntimes;
import io.koord4j.manager.support.PodSets;
import io.koord4j.quantity.ResourceQuantities;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The QueueUnit that stands for a job: same name and namespace, owned by the job. Pure. */
public final class QueueUnits {
  private QueueUnits() {}

  /**
   * @param priority the job's priority, resolved from its priority class when not set on the job
   */
  public static <T extends HasMetadata> QueueUnit desired(
      JobAdapter<T> adapter, T job, String queue, Integer priority) {
    QueueUnit unit = new QueueUnit();
    Map<String, String> jobLabels = job.getMetadata().getLabels();
    String quota = jobLabels == null ? null : jobLabels.get(WellKnown.QUOTA_NAME);
    unit.setMetadata(
        new ObjectMetaBuilder()
            .withName(job.getMetadata().getName())
            .withNamespace(job.getMetadata().getNamespace())
            .withOwnerReferences(ownerReference(job))
            .withLabels(quota == null ? Map.of() : Map.of(WellKnown.QUOTA_NAME, quota))
            .withAnnotations(annotations(adapter, job))
            .build());
    unit.setSpec(spec(adapter, job, queue, priority));
    return unit;
  }

  static <T extends HasMetadata> QueueUnitSpec spec(
      JobAdapter<T> adapter, T job, String queue, Integer priority) {
    QueueUnitSpec spec = new QueueUnitSpec();
    spec.setConsumerRef(
        new ObjectReferenceBuilder()
            .withApiVersion(adapter.apiVersion())
            .withKind(adapter.kind())
            .withNamespace(job.getMetadata().getNamespace())
            .withName(job.getMetadata().getName())
            .withUid(job.getMetadata().getUid())
            .build());
    spec.setQueue(queue);
    spec.setPriority(priority);
    spec.setPriorityClassName(adapter.priorityClassName(job).orElse(null));
    List<PodSetInfo> podSets = adapter.podSets(job);
    spec.setPodSet(podSets.stream().map(QueueUnits::podSet).toList());
    spec.setResource(ResourceQuantities.toQuantities(adapter.totalRequests(job)));
    return spec;
  }

  /**
   * The unit's annotations: the job's expected runtime, checked so that a bad value reaches the
   * job's owner, and how many succeeded pods the job replaces.
   */
  static <T extends HasMetadata> Map<String, String> annotations(JobAdapter<T> adapter, T job) {
    Map<String, String> unitAnnotations = new HashMap<>();
    Map<String, String> jobAnnotations = job.getMetadata().getAnnotations();
    String runtime = jobAnnotations == null ? null : jobAnnotations.get(WellKnown.EXPECTED_RUNTIME_SECONDS);
    if (runtime != null) {
      ExpectedRuntimes.parse(runtime);
      unitAnnotations.put(WellKnown.EXPECTED_RUNTIME_SECONDS, runtime);
    }
    adapter.succeededPodsReplaced(job)
        .ifPresent(replaced -> unitAnnotations.put(WellKnown.SUCCEEDED_PODS_REPLACED, replaced.toString()));
    return unitAnnotations;
  }

  /** The job owns its unit as controller, so deleting the job deletes the unit. */
  static OwnerReference ownerReference(HasMetadata job) {
    return new OwnerReferenceBuilder()
        .withApiVersion(job.getApiVersion())
        .withKind(job.getKind())
        .withName(job.getMetadata().getName())
        .withUid(job.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  /** The size the unit asks quota for: its pod sets' counts and its total request. */
  static GangShape shape(QueueUnit unit) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    List<PodSet> podSets = unit.getSpec().getPodSet() == null ? List.of() : unit.getSpec().getPodSet();
    podSets.forEach(podSet -> counts.put(podSet.getName(), podSet.getCount() == null ? 0 : podSet.getCount()));
    return new GangShape(counts, ResourceQuantities.toVector(unit.getSpec().getResource()));
  }

  private static PodSet podSet(PodSetInfo info) {
    return PodSets.filled(new PodSet(), info.name(), info.count(), info.minCount(), info.template());
  }
}
