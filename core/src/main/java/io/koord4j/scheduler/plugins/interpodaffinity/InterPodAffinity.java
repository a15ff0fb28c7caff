package io.koord4j.scheduler.plugins.interpodaffinity;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.PreFilterPlugin;
import io.koord4j.scheduler.framework.ScorePlugin;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.plugins.TopologyPair;
import java.util.EnumSet;
import java.util.Map;
import java.util.function.Function;

/**
 * Pod affinity and anti-affinity, as kube-scheduler's plugin of the same name. A node is refused
 * when a pod placed in one of its topology domains has a required anti-affinity term selecting the
 * incoming pod; when a required affinity term of the incoming pod finds no selected pod in the
 * node's domain; and when a required anti-affinity term finds one. A pod whose required affinity
 * selects itself may start a series: while no pod anywhere is selected, any node with the
 * topology keys fits. Nodes are scored by the preferred terms of both sides (and placed pods'
 * required affinity), scaled from the lowest to the highest score of the cycle.
 */
public final class InterPodAffinity extends BasePlugin implements PreFilterPlugin, FilterPlugin, ScorePlugin {

  public static final String NAME = "InterPodAffinity";
  static final String EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
  static final String AFFINITY = "node(s) didn't match pod affinity rules";
  static final String ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";

  private record CycleData(PodTerms terms, boolean selectsItself, DomainCounts counts) {}

  private static final CycleState.Key<CycleData> DATA = new CycleState.Key<>(NAME);

  private final Function<String, Map<String, String>> namespaceLabels;

  /** @param namespaceLabels a namespace's labels, empty when it is unknown, for namespace selectors */
  public InterPodAffinity(Function<String, Map<String, String>> namespaceLabels) {
    super(NAME, EnumSet.of(ClusterEvent.NODE_ADDED, ClusterEvent.NODE_UPDATED, ClusterEvent.POD_ADDED,
        ClusterEvent.ASSIGNED_POD_UPDATED, ClusterEvent.ASSIGNED_POD_DELETED));
    this.namespaceLabels = namespaceLabels;
  }

  @Override
  public Status preFilter(CycleState state, Pod pod) {
    PodTerms terms = PodTerms.of(pod);
    DomainCounts counts = new DomainCounts(pod, terms, namespaceLabels);
    for (NodeInfo node : state.nodes()) {
      // Placed pods without terms of their own matter only to a pod with terms.
      for (Pod placed : terms.isEmpty() ? node.podsWithAffinity() : node.pods()) {
        counts.add(placed, node.labels());
      }
    }
    state.put(DATA, new CycleData(terms, terms.requiredAffinitySelects(pod, namespaceLabels), counts));
    return Status.SUCCESS;
  }

  @Override
  public Status filter(CycleState state, Pod pod, NodeInfo node) {
    CycleData data = state.get(DATA);
    Map<String, String> labels = node.labels();
    if (inAnyDomain(data.counts().existingAntiAffinity, labels)) {
      return Status.unschedulable(EXISTING_ANTI_AFFINITY);
    }
    if (!affinitySatisfied(data, labels)) {
      return Status.unresolvable(AFFINITY);
    }
    for (AffinityTerm term : data.terms().requiredAntiAffinity()) {
      TopologyPair domain = term.domainOn(labels);
      if (domain != null && data.counts().antiAffinity.containsKey(domain)) {
        return Status.unschedulable(ANTI_AFFINITY);
      }
    }
    return Status.SUCCESS;
  }

  /** Every term's domain on the node must hold a selected pod, unless the pod starts a series. */
  private static boolean affinitySatisfied(CycleData data, Map<String, String> labels) {
    boolean everyDomainHasPods = true;
    for (AffinityTerm term : data.terms().requiredAffinity()) {
      TopologyPair domain = term.domainOn(labels);
      if (domain == null) {
        return false;
      }
      everyDomainHasPods &= data.counts().affinity.containsKey(domain);
    }
    return everyDomainHasPods || data.counts().affinity.isEmpty() && data.selectsItself();
  }

  private static boolean inAnyDomain(Map<TopologyPair, ?> domains, Map<String, String> labels) {
    for (TopologyPair domain : domains.keySet()) {
      if (domain.value().equals(labels.get(domain.key()))) {
        return true;
      }
    }
    return false;
  }

  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    Map<String, String> labels = node.labels();
    long score = 0;
    for (Map.Entry<TopologyPair, Long> domain : state.get(DATA).counts().preference.entrySet()) {
      if (domain.getKey().value().equals(labels.get(domain.getKey().key()))) {
        score += domain.getValue();
      }
    }
    return score;
  }

  /** From the lowest score (0) to the highest (100); all alike score 0. */
  @Override
  public void normalize(long[] scores) {
    long lowest = Long.MAX_VALUE;
    long highest = Long.MIN_VALUE;
    for (long score : scores) {
      lowest = Math.min(lowest, score);
      highest = Math.max(highest, score);
    }
    for (int i = 0; i < scores.length; i++) {
      scores[i] = highest > lowest ? MAX_SCORE * (scores[i] - lowest) / (highest - lowest) : 0;
    }
  }
}
