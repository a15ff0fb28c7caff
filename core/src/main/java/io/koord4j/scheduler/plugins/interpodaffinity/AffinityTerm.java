package io.koord4j.scheduler.plugins.interpodaffinity;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.koord4j.scheduler.plugins.LabelSelectors;
import io.koord4j.scheduler.plugins.TopologyPair;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One pod's (anti-)affinity term, its namespaces resolved against that pod: the namespaces it
 * lists, or those its namespace selector selects, or else the pod's own namespace.
 *
 * @param namespaceSelector null when the term has none; an empty one selects every namespace
 * @param weight the preferred term's weight, 0 for a required one
 */
record AffinityTerm(
    Set<String> namespaces, LabelSelector namespaceSelector, LabelSelector selector, String topologyKey, int weight) {

  static AffinityTerm of(Pod owner, PodAffinityTerm term, int weight) {
    Set<String> namespaces =
        term.getNamespaces().isEmpty() && term.getNamespaceSelector() == null
            ? Set.of(owner.getMetadata().getNamespace())
            : Set.copyOf(term.getNamespaces());
    return new AffinityTerm(
        namespaces, term.getNamespaceSelector(), term.getLabelSelector(), term.getTopologyKey(), weight);
  }

  /** Whether the term selects {@code pod}; {@code namespaceLabels} gives a namespace's labels. */
  boolean selects(Pod pod, Function<String, Map<String, String>> namespaceLabels) {
    String namespace = pod.getMetadata().getNamespace();
    boolean inNamespace =
        namespaces.contains(namespace)
            || namespaceSelector != null && LabelSelectors.matches(namespaceSelector, namespaceLabels.apply(namespace));
    return inNamespace && LabelSelectors.matches(selector, labelsOf(pod));
  }

  /** The topology domain of the term on a node, null when the node lacks the topology key. */
  TopologyPair domainOn(Map<String, String> nodeLabels) {
    return TopologyPair.of(topologyKey, nodeLabels);
  }

  static Map<String, String> labelsOf(Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }
}
