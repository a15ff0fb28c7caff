package io.koord4j.scheduler.plugins.podtopologyspread;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.plugins.NodeAffinity;
import io.koord4j.scheduler.plugins.TaintToleration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** For each constraint of one pod, its selected pods in each topology domain. */
final class SpreadCounts {

  private static final FilterPlugin NODE_AFFINITY = new NodeAffinity();
  private static final FilterPlugin TAINTS = new TaintToleration();

  private final List<SpreadConstraint> constraints;
  /** Per constraint: selected pods by the value of its topology key. */
  private final List<Map<String, Integer>> byDomain = new ArrayList<>();
  /** Per constraint: the fewest selected pods in a domain, 0 while it has too few domains. */
  private final int[] emptiest;

  private SpreadCounts(List<SpreadConstraint> constraints) {
    this.constraints = constraints;
    this.emptiest = new int[constraints.size()];
    constraints.forEach(c -> byDomain.add(new HashMap<>()));
  }

  /**
   * The domains of the nodes in {@code domainsOf}, with the pods counted on {@code countedOn}. A
   * node takes part in a constraint only with every constraint's topology key and when the
   * constraint's node policies let it.
   */
  static SpreadCounts over(
      Pod pod, List<SpreadConstraint> constraints, List<NodeInfo> domainsOf, List<NodeInfo> countedOn) {
    SpreadCounts counts = new SpreadCounts(constraints);
    String namespace = pod.getMetadata().getNamespace();
    for (NodeInfo node : domainsOf) {
      counts.forEachIncluded(pod, node, (i, domain) -> counts.byDomain.get(i).putIfAbsent(domain, 0));
    }
    for (NodeInfo node : countedOn) {
      counts.forEachIncluded(pod, node, (i, domain) -> counts.byDomain.get(i).computeIfPresent(
          domain, (d, n) -> n + selected(constraints.get(i), node, namespace)));
    }
    for (int i = 0; i < constraints.size(); i++) {
      Map<String, Integer> domains = counts.byDomain.get(i);
      counts.emptiest[i] = domains.size() < constraints.get(i).minDomains()
          ? 0
          : domains.values().stream().mapToInt(Integer::intValue).min().orElse(0);
    }
    return counts;
  }

  private interface Domain {
    void of(int constraint, String domain);
  }

  private void forEachIncluded(Pod pod, NodeInfo node, Domain action) {
    if (!hasEveryKey(node)) {
      return;
    }
    for (int i = 0; i < constraints.size(); i++) {
      SpreadConstraint constraint = constraints.get(i);
      if (included(constraint, pod, node)) {
        action.of(i, node.labels().get(constraint.topologyKey()));
      }
    }
  }

  private static boolean included(SpreadConstraint constraint, Pod pod, NodeInfo node) {
    CycleState none = new CycleState();
    return (!constraint.honorNodeAffinity() || NODE_AFFINITY.filter(none, pod, node).isSuccess())
        && (!constraint.honorTaints() || TAINTS.filter(none, pod, node).isSuccess());
  }

  private static int selected(SpreadConstraint constraint, NodeInfo node, String namespace) {
    int selected = 0;
    for (Pod placed : node.pods()) {
      if (constraint.counts(placed, namespace)) {
        selected++;
      }
    }
    return selected;
  }

  List<SpreadConstraint> constraints() {
    return constraints;
  }

  boolean hasEveryKey(NodeInfo node) {
    for (SpreadConstraint constraint : constraints) {
      if (!node.labels().containsKey(constraint.topologyKey())) {
        return false;
      }
    }
    return true;
  }

  /** Selected pods in the node's domain of constraint {@code i}. */
  int inDomainOf(int i, NodeInfo node) {
    return byDomain.get(i).getOrDefault(node.labels().get(constraints.get(i).topologyKey()), 0);
  }

  /** The fewest selected pods in a domain of constraint {@code i}; 0 while it has too few domains. */
  int emptiest(int i) {
    return emptiest[i];
  }

  /** How much a selected pod weighs in constraint {@code i}: more domains, more weight. */
  double weight(int i) {
    return Math.log(byDomain.get(i).size() + 2);
  }
}
