package io.koord4j.manager.support;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.koord4j.api.kueue.PodSet;

/** Fills the fields of Kueue's PodSet shape, which a QueueUnit's and a Workload's pod sets share. */
public final class PodSets {
  private PodSets() {}

  public static <P extends PodSet> P filled(
      P podSet, String name, Integer count, Integer minCount, PodTemplateSpec template) {
    podSet.setName(name);
    podSet.setCount(count);
    podSet.setMinCount(minCount);
    podSet.setTemplate(template);
    return podSet;
  }
}
