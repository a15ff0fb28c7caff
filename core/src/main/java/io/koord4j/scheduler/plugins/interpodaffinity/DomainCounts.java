package io.koord4j.scheduler.plugins.interpodaffinity;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.plugins.TopologyPair;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What one cycle learns from the pods already placed, by topology domain: for the incoming pod's
 * required terms, for the placed pods' required anti-affinity against it, and the preferences of
 * both sides as a score.
 */
final class DomainCounts {

  /** kube-scheduler's default weight of a placed pod's required affinity term when scoring. */
  static final int HARD_POD_AFFINITY_WEIGHT = 1;

  private final Pod incoming;
  private final PodTerms terms;
  private final Function<String, Map<String, String>> namespaceLabels;
  /** Placed pods selected by every required affinity term of the incoming pod. */
  final Map<TopologyPair, Integer> affinity = new HashMap<>();
  /** Placed pods selected by a required anti-affinity term of the incoming pod, per term's domain. */
  final Map<TopologyPair, Integer> antiAffinity = new HashMap<>();
  /** Required anti-affinity terms of placed pods that select the incoming pod. */
  final Map<TopologyPair, Integer> existingAntiAffinity = new HashMap<>();
  /** Preferred weights of both sides, less those of anti-affinity, plus placed pods' required affinity. */
  final Map<TopologyPair, Long> preference = new HashMap<>();

  DomainCounts(Pod incoming, PodTerms terms, Function<String, Map<String, String>> namespaceLabels) {
    this.incoming = incoming;
    this.terms = terms;
    this.namespaceLabels = namespaceLabels;
  }

  /** Counts one placed pod on a node with these labels. */
  void add(Pod placed, Map<String, String> nodeLabels) {
    if (terms.requiredAffinitySelects(placed, namespaceLabels)) {
      terms.requiredAffinity().forEach(term -> increment(affinity, term.domainOn(nodeLabels)));
    }
    termsSelecting(terms.requiredAntiAffinity(), placed, nodeLabels, (term, domain) -> increment(antiAffinity, domain));
    termsSelecting(terms.preferredAffinity(), placed, nodeLabels, (term, domain) -> prefer(domain, term.weight()));
    termsSelecting(terms.preferredAntiAffinity(), placed, nodeLabels, (term, domain) -> prefer(domain, -term.weight()));
    PodTerms theirs = PodTerms.of(placed);
    if (theirs.isEmpty()) {
      return;
    }
    termsSelecting(theirs.requiredAntiAffinity(), incoming, nodeLabels,
        (term, domain) -> increment(existingAntiAffinity, domain));
    termsSelecting(theirs.requiredAffinity(), incoming, nodeLabels,
        (term, domain) -> prefer(domain, HARD_POD_AFFINITY_WEIGHT));
    termsSelecting(theirs.preferredAffinity(), incoming, nodeLabels, (term, domain) -> prefer(domain, term.weight()));
    termsSelecting(theirs.preferredAntiAffinity(), incoming, nodeLabels,
        (term, domain) -> prefer(domain, -term.weight()));
  }

  private interface Match {
    void on(AffinityTerm term, TopologyPair domain);
  }

  /** Calls {@code match} for each term that selects {@code pod} on a node that has its topology key. */
  private void termsSelecting(List<AffinityTerm> candidates, Pod pod, Map<String, String> nodeLabels, Match match) {
    for (AffinityTerm term : candidates) {
      TopologyPair domain = term.domainOn(nodeLabels);
      if (domain != null && term.selects(pod, namespaceLabels)) {
        match.on(term, domain);
      }
    }
  }

  private static void increment(Map<TopologyPair, Integer> counts, TopologyPair domain) {
    if (domain != null) {
      counts.merge(domain, 1, Integer::sum);
    }
  }

  private void prefer(TopologyPair domain, long weight) {
    preference.merge(domain, weight, Long::sum);
  }
}
