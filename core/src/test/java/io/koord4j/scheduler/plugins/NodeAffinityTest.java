package io.koord4j.scheduler.plugins;

import static io.koord4j.scheduler.Fixtures.node;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeAffinityTest {

  private final NodeInfo gpuZoneA =
      NodeInfo.of(
          new NodeBuilder(node("n1", "8", "8Gi"))
              .editMetadata()
              .addToLabels(Map.of("pool", "gpu", "zone", "a", "gpus", "8"))
              .endMetadata()
              .build());

  @Test
  void nodeSelectorNeedsEveryLabel() {
    assertThat(matches(withSelector(Map.of("pool", "gpu", "zone", "a")))).isTrue();
    assertThat(matches(withSelector(Map.of("pool", "gpu", "zone", "b")))).isFalse();
  }

  @Test
  void oneRequiredTermMustMatchInFull() {
    NodeSelectorTerm wrongZone = term(requirement("zone", "In", "b"));
    NodeSelectorTerm gpuPool =
        term(requirement("pool", "In", "gpu"), requirement("spot", "DoesNotExist"));
    assertThat(matches(withAffinity(wrongZone, gpuPool))).isTrue();
    assertThat(matches(withAffinity(wrongZone))).isFalse();
  }

  @Test
  void supportsEveryOperator() {
    assertThat(matches(withAffinity(term(requirement("zone", "NotIn", "b"))))).isTrue();
    assertThat(matches(withAffinity(term(requirement("pool", "Exists"))))).isTrue();
    assertThat(matches(withAffinity(term(requirement("gpus", "Gt", "4"))))).isTrue();
    assertThat(matches(withAffinity(term(requirement("gpus", "Lt", "4"))))).isFalse();
    NodeSelectorTerm byName =
        new NodeSelectorTerm(List.of(), List.of(requirement("metadata.name", "In", "n1")));
    assertThat(matches(withAffinity(byName))).isTrue();
  }

  @Test
  void explainsTheRejection() {
    Pod pod = withSelector(Map.of("pool", "cpu"));
    assertThat(new NodeAffinity().filter(new CycleState(), pod, gpuZoneA).reasons())
        .containsExactly("node(s) didn't match Pod's node affinity/selector");
  }

  @Test
  void scoresByTheWeightsOfMatchingPreferredTerms() {
    NodeInfo plain = NodeInfo.of(node("n2", "8", "8Gi"));
    Pod pod =
        new PodBuilder(pod("p", "1", "1Gi"))
            .editSpec()
            .withNewAffinity()
            .withNewNodeAffinity()
            .addNewPreferredDuringSchedulingIgnoredDuringExecution()
            .withWeight(10)
            .withPreference(term(requirement("pool", "In", "gpu")))
            .endPreferredDuringSchedulingIgnoredDuringExecution()
            .addNewPreferredDuringSchedulingIgnoredDuringExecution()
            .withWeight(30)
            .withPreference(term(requirement("zone", "In", "a")))
            .endPreferredDuringSchedulingIgnoredDuringExecution()
            .endNodeAffinity()
            .endAffinity()
            .endSpec()
            .build();
    NodeAffinity plugin = new NodeAffinity();
    long[] scores = {plugin.score(new CycleState(), pod, gpuZoneA), plugin.score(new CycleState(), pod, plain)};
    assertThat(scores).containsExactly(40L, 0L);
    plugin.normalize(scores);
    assertThat(scores).containsExactly(100L, 0L);
  }

  private boolean matches(Pod pod) {
    return new NodeAffinity().filter(new CycleState(), pod, gpuZoneA).isSuccess();
  }

  private static Pod withSelector(Map<String, String> selector) {
    return new PodBuilder(pod("p", "1", "1Gi")).editSpec().withNodeSelector(selector).endSpec().build();
  }

  private static Pod withAffinity(NodeSelectorTerm... terms) {
    return new PodBuilder(pod("p", "1", "1Gi"))
        .editSpec()
        .withNewAffinity()
        .withNewNodeAffinity()
        .withNewRequiredDuringSchedulingIgnoredDuringExecution()
        .withNodeSelectorTerms(terms)
        .endRequiredDuringSchedulingIgnoredDuringExecution()
        .endNodeAffinity()
        .endAffinity()
        .endSpec()
        .build();
  }

  private static NodeSelectorTerm term(NodeSelectorRequirement... requirements) {
    return new NodeSelectorTerm(List.of(requirements), List.of());
  }

  private static NodeSelectorRequirement requirement(String key, String operator, String... values) {
    return new NodeSelectorRequirement(key, operator, List.of(values));
  }
}
