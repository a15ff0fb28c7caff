package io.koord4j.scheduler.plugins.interpodaffinity;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A pod's inter-pod affinity and anti-affinity terms, required and preferred. */
record PodTerms(
    List<AffinityTerm> requiredAffinity,
    List<AffinityTerm> requiredAntiAffinity,
    List<AffinityTerm> preferredAffinity,
    List<AffinityTerm> preferredAntiAffinity) {

  static final PodTerms NONE = new PodTerms(List.of(), List.of(), List.of(), List.of());

  static PodTerms of(Pod pod) {
    Affinity affinity = pod.getSpec().getAffinity();
    if (affinity == null || affinity.getPodAffinity() == null && affinity.getPodAntiAffinity() == null) {
      return NONE;
    }
    var podAffinity = affinity.getPodAffinity();
    var antiAffinity = affinity.getPodAntiAffinity();
    return new PodTerms(
        podAffinity == null ? List.of() : required(pod, podAffinity.getRequiredDuringSchedulingIgnoredDuringExecution()),
        antiAffinity == null ? List.of() : required(pod, antiAffinity.getRequiredDuringSchedulingIgnoredDuringExecution()),
        podAffinity == null ? List.of() : preferred(pod, podAffinity.getPreferredDuringSchedulingIgnoredDuringExecution()),
        antiAffinity == null ? List.of() : preferred(pod, antiAffinity.getPreferredDuringSchedulingIgnoredDuringExecution()));
  }

  boolean isEmpty() {
    return requiredAffinity.isEmpty() && requiredAntiAffinity.isEmpty()
        && preferredAffinity.isEmpty() && preferredAntiAffinity.isEmpty();
  }

  /** Whether {@code pod} is selected by every required affinity term; false when there are none. */
  boolean requiredAffinitySelects(Pod pod, Function<String, Map<String, String>> namespaceLabels) {
    if (requiredAffinity.isEmpty()) {
      return false;
    }
    for (AffinityTerm term : requiredAffinity) {
      if (!term.selects(pod, namespaceLabels)) {
        return false;
      }
    }
    return true;
  }

  private static List<AffinityTerm> required(Pod pod, List<PodAffinityTerm> terms) {
    return terms.stream().map(term -> AffinityTerm.of(pod, term, 0)).toList();
  }

  private static List<AffinityTerm> preferred(Pod pod, List<WeightedPodAffinityTerm> terms) {
    return terms.stream().map(term -> AffinityTerm.of(pod, term.getPodAffinityTerm(), term.getWeight())).toList();
  }
}
