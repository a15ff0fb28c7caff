package io.koord4j.manager.jobs;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.gang.PodGroupSpec;
import io.koord4j.jobs.PodSetInfo;
import java.util.List;
import java.util.Map;

/**
 * A job of more than one pod starts as a gang: a PodGroup named like the job whose minMember is
 * the pods that must start together (every pod but those the job's own pods create later, such
 * as a Spark driver's executors), and pod templates that join it. Pure.
 */
public final class Gangs {
  /** Who applies PodGroups, so that the server keeps their spec as the manager's alone. */
  public static final String FIELD_MANAGER = "koord4j-manager";

  private Gangs() {}

  public static int size(List<PodSetInfo> podSets) {
    return podSets.stream().mapToInt(PodSetInfo::count).sum();
  }

  /** How many of the job's pods must be placed together before any starts. */
  public static int minMember(List<PodSetInfo> podSets) {
    return podSets.stream().mapToInt(PodSetInfo::minCount).sum();
  }

  public static boolean needsPodGroup(List<PodSetInfo> podSets) {
    return size(podSets) > 1;
  }

  public static PodGroup podGroup(HasMetadata job, List<PodSetInfo> podSets) {
    PodGroup group = new PodGroup();
    group.setMetadata(
        new ObjectMetaBuilder()
            .withName(job.getMetadata().getName())
            .withNamespace(job.getMetadata().getNamespace())
            .withOwnerReferences(QueueUnits.ownerReference(job))
            .build());
    PodGroupSpec spec = new PodGroupSpec();
    spec.setMinMember(minMember(podSets));
    group.setSpec(spec);
    return group;
  }

  /**
   * A template whose pods name their unit {@code <ns>/<unit>} and the quota it was admitted to,
   * and, in a gang, join it twice over: by the PodGroup label and by Koordinator's gang annotations
   * (name, min-available, total-number), so that schedulers reading either place the job's pods
   * together.
   */
  public static PodTemplateSpec join(
      PodTemplateSpec template, HasMetadata job, List<PodSetInfo> podSets, String quota) {
    String name = job.getMetadata().getName();
    PodTemplateSpecBuilder builder =
        new PodTemplateSpecBuilder(template)
            .editOrNewMetadata()
            .addToAnnotations(WellKnown.RELATED_QUEUEUNIT, job.getMetadata().getNamespace() + "/" + name)
            .addToAnnotations(WellKnown.UNIT_QUOTA, quota)
            .endMetadata();
    if (needsPodGroup(podSets)) {
      builder
          .editMetadata()
          .addToLabels(WellKnown.POD_GROUP_LABEL, name)
          .addToAnnotations(WellKnown.GANG_NAME, name)
          .addToAnnotations(WellKnown.GANG_MIN_AVAILABLE, Integer.toString(minMember(podSets)))
          .addToAnnotations(WellKnown.GANG_TOTAL_NUMBER, Integer.toString(size(podSets)))
          .endMetadata();
    }
    return builder.build();
  }

  /** The template with {@code nodeSelector} added, e.g. the topology domain its gang fits in. */
  public static PodTemplateSpec withNodeSelector(PodTemplateSpec template, Map<String, String> nodeSelector) {
    return nodeSelector.isEmpty()
        ? template
        : new PodTemplateSpecBuilder(template).editOrNewSpec().addToNodeSelector(nodeSelector).endSpec().build();
  }
}
