package io.koord4j.scheduler.kube;

import static io.koord4j.scheduler.Fixtures.node;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import org.junit.jupiter.api.Test;

class KubeAdaptersTest {

  @Test
  void onlyChangesFiltersReadCountAsNodeUpdates() {
    Node node = node("n", "8", "8Gi");
    Node heartbeat =
        new NodeBuilder(node).editStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    Node relabelled = new NodeBuilder(node).editMetadata().addToLabels("pool", "gpu").endMetadata().build();
    Node cordoned = new NodeBuilder(node).editSpec().withUnschedulable(true).endSpec().build();
    Node grown = new NodeBuilder(node).editStatus().addToAllocatable("cpu", new Quantity("16")).endStatus().build();
    Node yarnYielded = new NodeBuilder(node).editMetadata()
        .addToAnnotations(WellKnown.THIRD_PARTY_ALLOCATIONS, "{\"allocations\":[]}").endMetadata().build();
    Node annotated = new NodeBuilder(node).editMetadata().addToAnnotations("note", "x").endMetadata().build();

    assertThat(ClusterWatch.schedulingRelevantChange(node, heartbeat)).isFalse();
    assertThat(ClusterWatch.schedulingRelevantChange(node, relabelled)).isTrue();
    assertThat(ClusterWatch.schedulingRelevantChange(node, cordoned)).isTrue();
    assertThat(ClusterWatch.schedulingRelevantChange(node, grown)).isTrue();
    assertThat(ClusterWatch.schedulingRelevantChange(node, yarnYielded))
        .as("third parties' allocations decide what batch pods fit").isTrue();
    assertThat(ClusterWatch.schedulingRelevantChange(node, annotated)).isFalse();
  }

  @Test
  void aRepeatedFailureIsNotWrittenAgain() {
    Pod pending = pod("p", "1", "1Gi");
    Pod told =
        new PodBuilder(pending)
            .withNewStatus()
            .addNewCondition()
            .withType("PodScheduled")
            .withStatus("False")
            .withReason("Unschedulable")
            .withMessage("0/1 nodes are available: 1 Insufficient cpu.")
            .endCondition()
            .endStatus()
            .build();

    assertThat(PodOutcomeRecorder.alreadySays(pending, "0/1 nodes are available: 1 Insufficient cpu.")).isFalse();
    assertThat(PodOutcomeRecorder.alreadySays(told, "0/1 nodes are available: 1 Insufficient cpu.")).isTrue();
    assertThat(PodOutcomeRecorder.alreadySays(told, "0/2 nodes are available: 2 Insufficient cpu.")).isFalse();
  }
}
