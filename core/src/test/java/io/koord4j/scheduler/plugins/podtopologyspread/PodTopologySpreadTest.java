package io.koord4j.scheduler.plugins.podtopologyspread;

import static io.koord4j.scheduler.plugins.PodsInTopology.HOSTNAME;
import static io.koord4j.scheduler.plugins.PodsInTopology.ZONE;
import static io.koord4j.scheduler.plugins.PodsInTopology.labelled;
import static io.koord4j.scheduler.plugins.PodsInTopology.matchLabels;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.plugins.PodsInTopology;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PodTopologySpreadTest {

  private static final String FITS = "fits";
  private static final String SKEWED = PodTopologySpread.SKEWED;
  private static final LabelSelector WEB = matchLabels("app", "web");

  private final PodTopologySpread plugin = new PodTopologySpread(pod -> null);

  static Stream<Arguments> filterCases() {
    return Stream.of(
        filter("a pod without constraints fits anywhere", labelled("p", "default", "app", "web"),
            cluster().node("n1", "z1", web("a"), web("b")).node("n2", "z2"),
            expect("n1", FITS, "n2", FITS)),
        filter("the pod goes where it keeps the zones within the skew",
            spread(hard(1, ZONE, WEB)),
            cluster().node("n1", "z1", web("a")).node("n2", "z1", web("b")).node("n3", "z2", web("c")).node("n4", "z2"),
            expect("n1", SKEWED, "n2", SKEWED, "n3", FITS, "n4", FITS)),
        filter("pods the selector does not select are not counted",
            spread(hard(1, ZONE, WEB)),
            cluster().node("n1", "z1", web("a"), labelled("db", "default", "app", "db")).node("n2", "z2"),
            expect("n1", SKEWED, "n2", FITS)),
        filter("pods of other namespaces are not counted",
            spread(hard(1, ZONE, WEB)),
            cluster().node("n1", "z1", labelled("a", "other", "app", "web")).node("n2", "z2"),
            expect("n1", FITS, "n2", FITS)),
        filter("pods being deleted are not counted",
            spread(hard(1, ZONE, WEB)),
            cluster().node("n1", "z1", terminating(web("a"))).node("n2", "z2"),
            expect("n1", FITS, "n2", FITS)),
        filter("a node without the topology key cannot take the pod",
            spread(hard(1, ZONE, WEB)),
            cluster().node("n1", "z1").node("n2", null),
            expect("n1", FITS, "n2", PodTopologySpread.MISSING_LABEL)),
        filter("spreading over hostnames refuses the node that already holds more",
            spread(hard(1, HOSTNAME, WEB)),
            cluster().node("n1", "z1", web("a")).node("n2", "z1"),
            expect("n1", SKEWED, "n2", FITS)),
        filter("a pod its own selector does not select adds nothing to the skew",
            spread(labelled("p", "default", "app", "other"), hard(1, ZONE, WEB)),
            cluster().node("n1", "z1", web("a"), web("b")).node("n2", "z2", web("c")),
            expect("n1", FITS, "n2", FITS)),
        filter("a larger maxSkew tolerates more imbalance",
            spread(hard(3, ZONE, WEB)),
            cluster().node("n1", "z1", web("a"), web("b")).node("n2", "z2"),
            expect("n1", FITS, "n2", FITS)),
        filter("with fewer domains than minDomains the emptiest counts as empty",
            spread(hard(1, ZONE, WEB, c -> c.withMinDomains(3))),
            cluster().node("n1", "z1", web("a")).node("n2", "z2", web("b")),
            expect("n1", SKEWED, "n2", SKEWED)),
        filter("with enough domains minDomains changes nothing",
            spread(hard(1, ZONE, WEB, c -> c.withMinDomains(2))),
            cluster().node("n1", "z1", web("a")).node("n2", "z2", web("b")),
            expect("n1", FITS, "n2", FITS)),
        filter("by default only nodes the pod's node affinity accepts make domains",
            withNodeSelector(spread(hard(1, ZONE, WEB)), "pool", "a"),
            cluster().labelledNode("n1", Map.of(ZONE, "z1", "pool", "a"), web("a"))
                .labelledNode("n2", Map.of(ZONE, "z2", "pool", "a"), web("b"))
                .node("n3", "z3"),
            expect("n1", FITS, "n2", FITS, "n3", FITS)),
        filter("nodeAffinityPolicy Ignore counts the domains of every node",
            withNodeSelector(spread(hard(1, ZONE, WEB, c -> c.withNodeAffinityPolicy("Ignore"))), "pool", "a"),
            cluster().labelledNode("n1", Map.of(ZONE, "z1", "pool", "a"), web("a"))
                .labelledNode("n2", Map.of(ZONE, "z2", "pool", "a"), web("b"))
                .node("n3", "z3"),
            expect("n1", SKEWED, "n2", SKEWED, "n3", FITS)),
        filter("by default nodes with untolerated taints make domains too",
            spread(hard(1, ZONE, WEB)),
            tainted(cluster().node("n1", "z1", web("a")).node("n2", "z2", web("b"))),
            expect("n1", SKEWED, "n2", SKEWED, "n3", FITS)),
        filter("nodeTaintsPolicy Honor leaves out nodes whose taints the pod does not tolerate",
            spread(hard(1, ZONE, WEB, c -> c.withNodeTaintsPolicy("Honor"))),
            tainted(cluster().node("n1", "z1", web("a")).node("n2", "z2", web("b"))),
            expect("n1", FITS, "n2", FITS, "n3", FITS)),
        filter("matchLabelKeys counts only the pods sharing the pod's values of those keys",
            spread(labelled("p", "default", "app", "web", "version", "v2"),
                hard(1, ZONE, WEB, c -> c.withMatchLabelKeys("version"))),
            cluster().node("n1", "z1", labelled("a", "default", "app", "web", "version", "v1"),
                    labelled("b", "default", "app", "web", "version", "v1"))
                .node("n2", "z2", labelled("c", "default", "app", "web", "version", "v2")),
            expect("n1", FITS, "n2", SKEWED)),
        filter("every constraint must hold",
            spread(hard(1, ZONE, WEB), hard(1, HOSTNAME, WEB)),
            cluster().node("n1", "z1", web("a")).node("n2", "z1").node("n3", "z2", web("b")).node("n4", "z2"),
            expect("n1", SKEWED, "n2", FITS, "n3", SKEWED, "n4", FITS)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void refusesNodesThatWouldSkewTheSpread(
      String scenario, Pod pod, PodsInTopology cluster, Map<String, String> expected) {
    CycleState state = new CycleState();
    state.setNodes(cluster.nodes());
    assertThat(plugin.preFilter(state, pod)).isEqualTo(Status.SUCCESS);
    Map<String, String> actual = new LinkedHashMap<>();
    for (NodeInfo node : cluster.nodes()) {
      Status status = plugin.filter(state, pod, node);
      actual.put(node.name(), status.isSuccess() ? FITS : status.message());
      if (!status.isSuccess()) {
        assertThat(status.code()).isEqualTo(status.message().equals(PodTopologySpread.MISSING_LABEL)
            ? Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE
            : Status.Code.UNSCHEDULABLE);
      }
    }
    assertThat(actual).as(scenario).isEqualTo(expected);
  }

  @Test
  void aRefusedPodIsRetriedWhenPodsOrNodesChangeWhereItCouldGo() {
    assertThat(plugin.requeueOn())
        .contains(ClusterEvent.POD_ADDED, ClusterEvent.ASSIGNED_POD_UPDATED, ClusterEvent.ASSIGNED_POD_DELETED,
            ClusterEvent.NODE_ADDED, ClusterEvent.NODE_UPDATED);
  }

  static Stream<Arguments> scoreCases() {
    return Stream.of(
        score("fewer selected pods in the node's domain score higher",
            spread(soft(1, HOSTNAME, WEB)), null,
            cluster().node("n1", "z1", web("a"), web("b")).node("n2", "z1").node("n3", "z2", web("c")),
            List.of(0L, 100L, 33L)),
        score("each zone's pods count for every node in it",
            spread(soft(1, ZONE, WEB)), null,
            cluster().node("n1", "z1", web("a")).node("n2", "z1").node("n3", "z2"),
            List.of(0L, 0L, 100L)),
        score("a node without the topology key scores nothing",
            spread(soft(1, ZONE, WEB)), null,
            cluster().node("n1", "z1", web("a")).node("n2", "z2").node("n3", null),
            List.of(0L, 100L, 0L)),
        score("when no domain holds a selected pod every node scores the most",
            spread(soft(2, ZONE, WEB)), null,
            cluster().node("n1", "z1").node("n2", "z2"),
            List.of(100L, 100L)),
        score("constraints that must hold do not score",
            spread(hard(1, HOSTNAME, WEB)), null,
            cluster().node("n1", "z1", web("a")).node("n2", "z1"),
            List.of(0L, 0L)),
        score("a pod without constraints is spread by its owners' selector over hostnames and zones",
            labelled("p", "default", "app", "web"), WEB,
            cluster().node("n1", "z1", web("a"), web("b")).node("n2", "z1").node("n3", "z2"),
            List.of(50L, 75L, 100L)),
        score("a pod without constraints and without owners is not spread",
            labelled("p", "default", "app", "web"), null,
            cluster().node("n1", "z1", web("a"), web("b")).node("n2", "z2"),
            List.of(0L, 0L)),
        score("the system defaults stay away from a pod with constraints of its own",
            spread(hard(5, ZONE, WEB)), WEB,
            cluster().node("n1", "z1", web("a"), web("b")).node("n2", "z2"),
            List.of(0L, 0L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreCases")
  void scoresNodesBySelectedPodsInTheirDomains(
      String scenario, Pod pod, LabelSelector owners, PodsInTopology cluster, List<Long> expected) {
    PodTopologySpread withOwners = new PodTopologySpread(p -> owners);
    CycleState state = new CycleState();
    state.setNodes(cluster.nodes());
    withOwners.preScore(state, pod, cluster.nodes());
    long[] scores = cluster.nodes().stream().mapToLong(node -> withOwners.score(state, pod, node)).toArray();
    withOwners.normalize(scores);
    assertThat(scores).as(scenario).containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
  }

  private static Arguments filter(String scenario, Pod pod, PodsInTopology cluster, Map<String, String> expected) {
    return Arguments.of(scenario, pod, cluster, expected);
  }

  private static Arguments score(
      String scenario, Pod pod, LabelSelector owners, PodsInTopology cluster, List<Long> expected) {
    return Arguments.of(scenario, pod, owners, cluster, expected);
  }

  private static PodsInTopology cluster() {
    return new PodsInTopology();
  }

  /** Adds node n3 in zone z3, empty and tainted NoSchedule. */
  private static PodsInTopology tainted(PodsInTopology cluster) {
    return cluster.taintedNode("n3", "z3", new Taint("NoSchedule", "dedicated", null, "gpu"));
  }

  private static Map<String, String> expect(String... nodeThenOutcome) {
    Map<String, String> expected = new LinkedHashMap<>();
    for (int i = 0; i < nodeThenOutcome.length; i += 2) {
      expected.put(nodeThenOutcome[i], nodeThenOutcome[i + 1]);
    }
    return expected;
  }

  private static Pod web(String name) {
    return labelled(name, "default", "app", "web");
  }

  private static Pod terminating(Pod pod) {
    return new PodBuilder(pod).editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build();
  }

  private static Pod spread(TopologySpreadConstraint... constraints) {
    return spread(web("p"), constraints);
  }

  private static Pod spread(Pod pod, TopologySpreadConstraint... constraints) {
    return new PodBuilder(pod).editSpec().withTopologySpreadConstraints(constraints).endSpec().build();
  }

  private static Pod withNodeSelector(Pod pod, String key, String value) {
    return new PodBuilder(pod).editSpec().addToNodeSelector(key, value).endSpec().build();
  }

  private static TopologySpreadConstraint hard(int maxSkew, String key, LabelSelector selector) {
    return constraint(maxSkew, key, "DoNotSchedule", selector, UnaryOperator.identity());
  }

  private static TopologySpreadConstraint hard(
      int maxSkew, String key, LabelSelector selector, UnaryOperator<TopologySpreadConstraintBuilder> more) {
    return constraint(maxSkew, key, "DoNotSchedule", selector, more);
  }

  private static TopologySpreadConstraint soft(int maxSkew, String key, LabelSelector selector) {
    return constraint(maxSkew, key, "ScheduleAnyway", selector, UnaryOperator.identity());
  }

  private static TopologySpreadConstraint constraint(
      int maxSkew, String key, String whenUnsatisfiable, LabelSelector selector,
      UnaryOperator<TopologySpreadConstraintBuilder> more) {
    return more.apply(new TopologySpreadConstraintBuilder()
            .withMaxSkew(maxSkew)
            .withTopologyKey(key)
            .withWhenUnsatisfiable(whenUnsatisfiable)
            .withLabelSelector(selector))
        .build();
  }
}
