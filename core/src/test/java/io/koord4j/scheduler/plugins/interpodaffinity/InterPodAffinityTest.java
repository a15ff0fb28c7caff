package io.koord4j.scheduler.plugins.interpodaffinity;

import static io.koord4j.scheduler.plugins.PodsInTopology.HOSTNAME;
import static io.koord4j.scheduler.plugins.PodsInTopology.ZONE;
import static io.koord4j.scheduler.plugins.PodsInTopology.labelled;
import static io.koord4j.scheduler.plugins.PodsInTopology.matchLabels;
import static io.koord4j.scheduler.plugins.PodsInTopology.selector;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.plugins.PodsInTopology;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class InterPodAffinityTest {

  private static final String FITS = "fits";
  private static final Map<String, Map<String, String>> NAMESPACE_LABELS =
      Map.of("team-a", Map.of("team", "a"), "team-b", Map.of("team", "b"));

  private final InterPodAffinity plugin =
      new InterPodAffinity(ns -> NAMESPACE_LABELS.getOrDefault(ns, Map.of()));

  private static final Pod WEB = labelled("web", "default", "app", "web");
  private static final Pod DB = labelled("db", "default", "app", "db");

  static Stream<Arguments> filterCases() {
    return Stream.of(
        filter("a pod without affinity fits anywhere", labelled("p", "default"),
            cluster().node("n1", "z1", WEB),
            expect("n1", FITS)),
        filter("required affinity fits the node holding a selected pod",
            affinity(term(HOSTNAME, matchLabels("app", "web"))),
            cluster().node("n1", "z1", WEB).node("n2", "z1"),
            expect("n1", FITS, "n2", InterPodAffinity.AFFINITY)),
        filter("required affinity with NotIn is met by a pod whose label is not listed",
            affinity(term(HOSTNAME, selector("app", "NotIn", "db"))),
            cluster().node("n1", "z1", WEB),
            expect("n1", FITS)),
        filter("required affinity by zone fits every node of the selected pod's zone",
            affinity(term(ZONE, matchLabels("app", "web"))),
            cluster().node("n1", "z1", WEB).node("n2", "z1").node("n3", "z2").node("n4", null),
            expect("n1", FITS, "n2", FITS, "n3", InterPodAffinity.AFFINITY, "n4", InterPodAffinity.AFFINITY)),
        filter("a term without namespaces looks in the pod's own namespace only",
            affinity(term(HOSTNAME, matchLabels("app", "web"))),
            cluster().node("n1", "z1", labelled("web", "team-a", "app", "web")),
            expect("n1", InterPodAffinity.AFFINITY)),
        filter("a term's namespaces list other namespaces",
            affinity(term(HOSTNAME, matchLabels("app", "web"), List.of("team-a"), null)),
            cluster().node("n1", "z1", labelled("web", "team-a", "app", "web")),
            expect("n1", FITS)),
        filter("a namespace selector selects namespaces by their labels",
            affinity(term(HOSTNAME, matchLabels("app", "web"), List.of(), matchLabels("team", "b"))),
            cluster().node("n1", "z1", labelled("web", "team-a", "app", "web"))
                .node("n2", "z1", labelled("web", "team-b", "app", "web")),
            expect("n1", InterPodAffinity.AFFINITY, "n2", FITS)),
        filter("an empty namespace selector selects every namespace",
            affinity(term(HOSTNAME, matchLabels("app", "web"), List.of(), new LabelSelector())),
            cluster().node("n1", "z1", labelled("web", "team-a", "app", "web")),
            expect("n1", FITS)),
        filter("several required terms must all select the same pod",
            affinity(term(HOSTNAME, matchLabels("app", "web")), term(HOSTNAME, matchLabels("tier", "front"))),
            cluster().node("n1", "z1", WEB, labelled("front", "default", "tier", "front"))
                .node("n2", "z1", labelled("both", "default", "app", "web", "tier", "front")),
            expect("n1", InterPodAffinity.AFFINITY, "n2", FITS)),
        filter("the first pod of a self-affine series fits any node with the topology key",
            withLabels(affinity(term(ZONE, matchLabels("app", "web"))), "app", "web"),
            cluster().node("n1", "z1", DB).node("n2", null),
            expect("n1", FITS, "n2", InterPodAffinity.AFFINITY)),
        filter("once a pod of the series runs, the next one follows it",
            withLabels(affinity(term(ZONE, matchLabels("app", "web"))), "app", "web"),
            cluster().node("n1", "z1", WEB).node("n2", "z2"),
            expect("n1", FITS, "n2", InterPodAffinity.AFFINITY)),
        filter("a pod whose affinity does not select itself never starts a series",
            affinity(term(ZONE, matchLabels("app", "web"))),
            cluster().node("n1", "z1"),
            expect("n1", InterPodAffinity.AFFINITY)),
        filter("required anti-affinity refuses the selected pod's node only, by hostname",
            antiAffinity(term(HOSTNAME, matchLabels("app", "web"))),
            cluster().node("n1", "z1", WEB).node("n2", "z1"),
            expect("n1", InterPodAffinity.ANTI_AFFINITY, "n2", FITS)),
        filter("required anti-affinity by zone refuses the selected pod's whole zone",
            antiAffinity(term(ZONE, matchLabels("app", "web"))),
            cluster().node("n1", "z1", WEB).node("n2", "z1").node("n3", "z2").node("n4", null),
            expect("n1", InterPodAffinity.ANTI_AFFINITY, "n2", InterPodAffinity.ANTI_AFFINITY,
                "n3", FITS, "n4", FITS)),
        filter("a term without a label selector selects no pod",
            antiAffinity(term(HOSTNAME, null)),
            cluster().node("n1", "z1", WEB),
            expect("n1", FITS)),
        filter("a placed pod's anti-affinity keeps the pods it selects out of its domain",
            labelled("p", "default", "app", "web"),
            cluster().node("n1", "z1", withAntiAffinity(DB, term(ZONE, matchLabels("app", "web"))))
                .node("n2", "z1").node("n3", "z2"),
            expect("n1", InterPodAffinity.EXISTING_ANTI_AFFINITY, "n2", InterPodAffinity.EXISTING_ANTI_AFFINITY,
                "n3", FITS)),
        filter("a placed pod's anti-affinity with a topology key its node lacks keeps no one out",
            labelled("p", "default", "app", "web"),
            cluster().node("n1", null, withAntiAffinity(DB, term(ZONE, matchLabels("app", "web")))),
            expect("n1", FITS)),
        filter("a placed pod's anti-affinity reads the incoming pod's namespace labels",
            labelled("p", "team-a", "app", "web"),
            cluster().node("n1", "z1",
                    withAntiAffinity(DB, term(HOSTNAME, matchLabels("app", "web"), List.of(), matchLabels("team", "a"))))
                .node("n2", "z1",
                    withAntiAffinity(DB, term(HOSTNAME, matchLabels("app", "web"), List.of(), matchLabels("team", "b")))),
            expect("n1", InterPodAffinity.EXISTING_ANTI_AFFINITY, "n2", FITS)),
        filter("two replicas with anti-affinity to each other never share a node",
            withLabels(antiAffinity(term(HOSTNAME, matchLabels("app", "web"))), "app", "web"),
            cluster().node("n1", "z1", withAntiAffinity(WEB, term(HOSTNAME, matchLabels("app", "web"))))
                .node("n2", "z1"),
            expect("n1", InterPodAffinity.EXISTING_ANTI_AFFINITY, "n2", FITS)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void filtersNodesByThePodsInTheirDomains(
      String scenario, Pod pod, PodsInTopology cluster, Map<String, String> expected) {
    CycleState state = prepared(pod, cluster);
    Map<String, String> actual = new LinkedHashMap<>();
    for (NodeInfo node : cluster.nodes()) {
      Status status = plugin.filter(state, pod, node);
      actual.put(node.name(), status.isSuccess() ? FITS : status.message());
    }
    assertThat(actual).as(scenario).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void onlyAMissingAffinityIsUnresolvable(
      String scenario, Pod pod, PodsInTopology cluster, Map<String, String> expected) {
    CycleState state = prepared(pod, cluster);
    for (NodeInfo node : cluster.nodes()) {
      Status status = plugin.filter(state, pod, node);
      if (!status.isSuccess()) {
        assertThat(status.code())
            .isEqualTo(status.message().equals(InterPodAffinity.AFFINITY)
                ? Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE
                : Status.Code.UNSCHEDULABLE);
      }
    }
  }

  @Test
  void aRefusedPodIsRetriedWhenPodsOrNodesChangeWhereItCouldGo() {
    assertThat(plugin.requeueOn())
        .contains(ClusterEvent.POD_ADDED, ClusterEvent.ASSIGNED_POD_UPDATED, ClusterEvent.ASSIGNED_POD_DELETED,
            ClusterEvent.NODE_ADDED, ClusterEvent.NODE_UPDATED);
  }

  static Stream<Arguments> scoreCases() {
    return Stream.of(
        score("without preferences every node scores alike", labelled("p", "default"),
            cluster().node("n1", "z1", WEB).node("n2", "z2"),
            List.of(0L, 0L)),
        score("preferred affinity favours the domains of selected pods by weight",
            preferredAffinity(weighted(5, term(ZONE, matchLabels("app", "web"))),
                weighted(3, term(ZONE, matchLabels("app", "db")))),
            cluster().node("n1", "z1", WEB).node("n2", "z2", DB).node("n3", "z3"),
            List.of(100L, 60L, 0L)),
        score("preferred anti-affinity puts the selected pods' domains last",
            preferredAntiAffinity(weighted(5, term(HOSTNAME, matchLabels("app", "web")))),
            cluster().node("n1", "z1", WEB).node("n2", "z1"),
            List.of(0L, 100L)),
        score("scores are scaled from the lowest to the highest",
            withPreferences(labelled("p", "default"),
                List.of(weighted(10, term(ZONE, matchLabels("app", "web")))),
                List.of(weighted(5, term(ZONE, matchLabels("app", "db"))))),
            cluster().node("n1", "z1", WEB).node("n2", "z2", DB).node("n3", "z3"),
            List.of(100L, 0L, 33L)),
        score("a placed pod's preferred affinity draws the pods it selects",
            labelled("p", "default", "app", "web"),
            cluster().node("n1", "z1", withPreferredAffinity(DB, weighted(7, term(ZONE, matchLabels("app", "web")))))
                .node("n2", "z2"),
            List.of(100L, 0L)),
        score("a placed pod's required affinity draws the pods it selects",
            labelled("p", "default", "app", "web"),
            cluster().node("n1", "z1").node("n2", "z2", withAffinity(DB, term(ZONE, matchLabels("app", "web")))),
            List.of(0L, 100L)),
        score("a placed pod's preferred anti-affinity pushes away the pods it selects",
            labelled("p", "default", "app", "web"),
            cluster().node("n1", "z1",
                    withPreferredAntiAffinity(DB, weighted(7, term(ZONE, matchLabels("app", "web")))))
                .node("n2", "z2"),
            List.of(0L, 100L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreCases")
  void scoresNodesByPreferencesOfBothSides(String scenario, Pod pod, PodsInTopology cluster, List<Long> expected) {
    CycleState state = prepared(pod, cluster);
    long[] scores = cluster.nodes().stream().mapToLong(node -> plugin.score(state, pod, node)).toArray();
    plugin.normalize(scores);
    assertThat(scores).as(scenario).containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
  }

  private CycleState prepared(Pod pod, PodsInTopology cluster) {
    CycleState state = new CycleState();
    state.setNodes(cluster.nodes());
    assertThat(plugin.preFilter(state, pod)).isEqualTo(Status.SUCCESS);
    return state;
  }

  private static Arguments filter(String scenario, Pod pod, PodsInTopology cluster, Map<String, String> expected) {
    return Arguments.of(scenario, pod, cluster, expected);
  }

  private static Arguments score(String scenario, Pod pod, PodsInTopology cluster, List<Long> expected) {
    return Arguments.of(scenario, pod, cluster, expected);
  }

  private static PodsInTopology cluster() {
    return new PodsInTopology();
  }

  private static Map<String, String> expect(String... nodeThenOutcome) {
    Map<String, String> expected = new LinkedHashMap<>();
    for (int i = 0; i < nodeThenOutcome.length; i += 2) {
      expected.put(nodeThenOutcome[i], nodeThenOutcome[i + 1]);
    }
    return expected;
  }

  private static PodAffinityTerm term(String topologyKey, LabelSelector selector) {
    return new PodAffinityTermBuilder().withTopologyKey(topologyKey).withLabelSelector(selector).build();
  }

  private static PodAffinityTerm term(
      String topologyKey, LabelSelector selector, List<String> namespaces, LabelSelector namespaceSelector) {
    return new PodAffinityTermBuilder(term(topologyKey, selector))
        .withNamespaces(namespaces)
        .withNamespaceSelector(namespaceSelector)
        .build();
  }

  private static WeightedPodAffinityTerm weighted(int weight, PodAffinityTerm term) {
    return new WeightedPodAffinityTerm(term, weight);
  }

  private static Pod withLabels(Pod pod, String key, String value) {
    return new PodBuilder(pod).editMetadata().addToLabels(key, value).endMetadata().build();
  }

  private static Pod affinity(PodAffinityTerm... terms) {
    return withAffinity(labelled("p", "default"), terms);
  }

  private static Pod antiAffinity(PodAffinityTerm... terms) {
    return withAntiAffinity(labelled("p", "default"), terms);
  }

  private static Pod preferredAffinity(WeightedPodAffinityTerm... terms) {
    return withPreferredAffinity(labelled("p", "default"), terms);
  }

  private static Pod preferredAntiAffinity(WeightedPodAffinityTerm... terms) {
    return withPreferredAntiAffinity(labelled("p", "default"), terms);
  }

  private static Pod withAffinity(Pod pod, PodAffinityTerm... terms) {
    return new PodBuilder(pod).editSpec().withNewAffinity().withNewPodAffinity()
        .withRequiredDuringSchedulingIgnoredDuringExecution(terms)
        .endPodAffinity().endAffinity().endSpec().build();
  }

  private static Pod withAntiAffinity(Pod pod, PodAffinityTerm... terms) {
    return new PodBuilder(pod).editSpec().withNewAffinity().withNewPodAntiAffinity()
        .withRequiredDuringSchedulingIgnoredDuringExecution(terms)
        .endPodAntiAffinity().endAffinity().endSpec().build();
  }

  private static Pod withPreferredAffinity(Pod pod, WeightedPodAffinityTerm... terms) {
    return withPreferences(pod, List.of(terms), List.of());
  }

  private static Pod withPreferredAntiAffinity(Pod pod, WeightedPodAffinityTerm... terms) {
    return withPreferences(pod, List.of(), List.of(terms));
  }

  private static Pod withPreferences(
      Pod pod, List<WeightedPodAffinityTerm> affinity, List<WeightedPodAffinityTerm> antiAffinity) {
    return new PodBuilder(pod).editSpec().withNewAffinity()
        .withNewPodAffinity().withPreferredDuringSchedulingIgnoredDuringExecution(affinity).endPodAffinity()
        .withNewPodAntiAffinity().withPreferredDuringSchedulingIgnoredDuringExecution(antiAffinity)
        .endPodAntiAffinity()
        .endAffinity().endSpec().build();
  }
}
