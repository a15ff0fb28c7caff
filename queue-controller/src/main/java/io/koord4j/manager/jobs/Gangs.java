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

/**
 * A job of more than one pod starts as a gang: a PodGroup named like the job whose minMember is
 * every pod, and pod templates that join it. Pure.
 */
public final class Gangs {
  private Gangs() {}

  public static int size(List<PodSetInfo> podSets) {
    return podSets.stream().mapToInt(PodSetInfo::count).sum();
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
    spec.setMinMember(size(podSets));
    group.setSpec(spec);
    return group;
  }

  /** A template whose pods join the job's gang and name their unit {@code <ns>/<unit>}. */
  public static PodTemplateSpec join(PodTemplateSpec template, HasMetadata job, boolean gang) {
    String unit = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    PodTemplateSpecBuilder builder =
        new PodTemplateSpecBuilder(template)
            .editOrNewMetadata()
            .addToAnnotations(WellKnown.RELATED_QUEUEUNIT, unit)
            .endMetadata();
    if (gang) {
      builder
          .editMetadata()
          .addToLabels(WellKnown.POD_GROUP_LABEL, job.getMetadata().getName())
          .endMetadata();
    }
    return builder.build();
  }
}
