package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One group of identical pods of a job, in the shape of a Kueue PodSet.
 *
 * @param name the pod set's name, unique within the job (e.g. {@code main}, {@code worker})
 * @param count how many pods the job runs from this template
 * @param minCount how many of them must be placed together before any starts (the gang size)
 * @param template a copy of the pod template; changing it does not change the job
 * @param perPodRequests the effective request of one pod, in base units (see {@link PodRequests})
 */
public record PodSetInfo(
    String name,
    int count,
    int minCount,
    PodTemplateSpec template,
    Map<String, BigDecimal> perPodRequests) {

  public PodSetInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(perPodRequests, "perPodRequests");
    if (minCount < 0 || minCount > count) {
      throw new IllegalArgumentException(
          "pod set " + name + ": minCount " + minCount + " must be between 0 and count " + count);
    }
    template = new PodTemplateSpecBuilder(template).build();
    perPodRequests = Collections.unmodifiableMap(new TreeMap<>(perPodRequests));
  }

  /** What all {@link #count} pods request together. */
  public Map<String, BigDecimal> totalRequests() {
    return ResourceQuantities.times(perPodRequests, count);
  }

  /** {@link #perPodRequests} as Kubernetes quantities, e.g. for a QueueUnit's pod set. */
  public Map<String, Quantity> perPodQuantities() {
    return ResourceQuantities.toQuantities(perPodRequests);
  }
}
