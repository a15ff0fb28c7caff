package io.koord4j.scheduler.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.koord4j.scheduler.plugins.LabelSelectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One topology spread constraint of a pod, ready to count with: its selector already narrowed by
 * {@code matchLabelKeys} to the pod's own values of those labels, its policies and minimum number
 * of domains defaulted.
 *
 * @param honorNodeAffinity {@code nodeAffinityPolicy: Honor} (the default): only nodes the pod's
 *     nodeSelector and required node affinity accept count
 * @param honorTaints {@code nodeTaintsPolicy: Honor}: only nodes whose taints the pod tolerates
 *     count; by default (Ignore) every node does
 */
record SpreadConstraint(
    int maxSkew,
    String topologyKey,
    LabelSelector selector,
    int minDomains,
    boolean honorNodeAffinity,
    boolean honorTaints) {

  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";

  /** The pod's own constraints whose {@code whenUnsatisfiable} is {@code action}. */
  static List<SpreadConstraint> of(Pod pod, String action) {
    List<SpreadConstraint> constraints = new ArrayList<>();
    for (TopologySpreadConstraint c : pod.getSpec().getTopologySpreadConstraints()) {
      if (action.equals(c.getWhenUnsatisfiable())) {
        constraints.add(
            new SpreadConstraint(
                c.getMaxSkew(),
                c.getTopologyKey(),
                narrowed(c.getLabelSelector(), c.getMatchLabelKeys(), labelsOf(pod)),
                c.getMinDomains() == null ? 1 : c.getMinDomains(),
                !"Ignore".equals(c.getNodeAffinityPolicy()),
                "Honor".equals(c.getNodeTaintsPolicy())));
      }
    }
    return constraints;
  }

  /**
   * kube-scheduler's cluster-level defaults for a pod without constraints of its own: spread over
   * hostnames by a skew of 3 and over zones by 5, as preferences only.
   */
  static List<SpreadConstraint> systemDefaults(LabelSelector selector) {
    return List.of(
        new SpreadConstraint(3, HOSTNAME, selector, 1, true, false),
        new SpreadConstraint(5, ZONE, selector, 1, true, false));
  }

  /** Whether a placed pod counts against this constraint of a pod in {@code namespace}. */
  boolean counts(Pod placed, String namespace) {
    return placed.getMetadata().getDeletionTimestamp() == null
        && namespace.equals(placed.getMetadata().getNamespace())
        && LabelSelectors.matches(selector, labelsOf(placed));
  }

  /** The selector and, for each {@code matchLabelKeys} key the pod has, its value of that key. */
  private static LabelSelector narrowed(LabelSelector selector, List<String> keys, Map<String, String> labels) {
    if (selector == null || keys.isEmpty()) {
      return selector;
    }
    List<LabelSelectorRequirement> expressions =
        new ArrayList<>(selector.getMatchExpressions() == null ? List.of() : selector.getMatchExpressions());
    for (String key : keys) {
      if (labels.containsKey(key)) {
        expressions.add(new LabelSelectorRequirement(key, "In", List.of(labels.get(key))));
      }
    }
    return new LabelSelector(expressions, selector.getMatchLabels());
  }

  static Map<String, String> labelsOf(Pod pod) {
    Map<String, String> labels = pod.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }
}
