package io.koord4j.scheduler.plugins;

import static io.koord4j.scheduler.Fixtures.node;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import org.junit.jupiter.api.Test;

class TaintTolerationTest {

  private final TaintToleration plugin = new TaintToleration();

  @Test
  void rejectsAnUntoleratedNoScheduleTaint() {
    Status status = plugin.filter(new CycleState(), pod("p", "1", "1Gi"), tainted("NoSchedule"));
    assertThat(status.reasons()).containsExactly("node(s) had untolerated taint {dedicated: gpu}");
  }

  @Test
  void preferNoScheduleNeverBlocks() {
    assertThat(plugin.filter(new CycleState(), pod("p", "1", "1Gi"), tainted("PreferNoSchedule")))
        .isEqualTo(Status.SUCCESS);
  }

  @Test
  void prefersNodesWithFewerUntoleratedPreferNoScheduleTaints() {
    Pod pod = pod("p", "1", "1Gi");
    long[] scores = {
      plugin.score(new CycleState(), pod, tainted("PreferNoSchedule")),
      plugin.score(new CycleState(), pod, NodeInfo.of(node("c", "8", "8Gi")))
    };
    plugin.normalize(scores);
    assertThat(scores).as("tainted, clean").containsExactly(0L, 100L);
  }

  @Test
  void tolerationsMatchByKeyValueAndEffect() {
    NodeInfo node = tainted("NoExecute");
    assertThat(allowed(new Toleration("NoExecute", "dedicated", "Equal", null, "gpu"), node)).isTrue();
    assertThat(allowed(new Toleration(null, "dedicated", "Exists", null, null), node)).isTrue();
    assertThat(allowed(new Toleration(null, null, "Exists", null, null), node)).isTrue();
    assertThat(allowed(new Toleration("NoSchedule", "dedicated", "Equal", null, "gpu"), node)).isFalse();
    assertThat(allowed(new Toleration(null, "dedicated", "Equal", null, "cpu"), node)).isFalse();
  }

  @Test
  void cordonedNodesNeedTheUnschedulableToleration() {
    NodeInfo cordoned =
        NodeInfo.of(new NodeBuilder(node("n", "8", "8Gi")).editSpec().withUnschedulable(true).endSpec().build());
    NodeUnschedulable unschedulable = new NodeUnschedulable();
    assertThat(unschedulable.filter(new CycleState(), pod("p", "1", "1Gi"), cordoned).reasons())
        .containsExactly("node(s) were unschedulable");
    Pod tolerating =
        withToleration(new Toleration("NoSchedule", "node.kubernetes.io/unschedulable", "Exists", null, null));
    assertThat(unschedulable.filter(new CycleState(), tolerating, cordoned)).isEqualTo(Status.SUCCESS);
  }

  private boolean allowed(Toleration toleration, NodeInfo node) {
    return plugin.filter(new CycleState(), withToleration(toleration), node).isSuccess();
  }

  private static Pod withToleration(Toleration toleration) {
    return new PodBuilder(pod("p", "1", "1Gi")).editSpec().addToTolerations(toleration).endSpec().build();
  }

  private static NodeInfo tainted(String effect) {
    return NodeInfo.of(
        new NodeBuilder(node("n", "8", "8Gi"))
            .editSpec()
            .addToTaints(new Taint(effect, "dedicated", null, "gpu"))
            .endSpec()
            .build());
  }
}
