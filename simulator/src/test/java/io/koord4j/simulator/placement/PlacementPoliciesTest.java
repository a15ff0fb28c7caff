package io.koord4j.simulator.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.device.TaskClass;
import io.koord4j.simulator.cluster.SimCluster;
import io.koord4j.simulator.trace.NodeSpec;
import io.koord4j.simulator.trace.TaskShape;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PlacementPoliciesTest {
  private static final TaskShape HALF = new TaskShape(1000, 1024, 1, 500, Set.of());
  private static final TaskShape THIRTY = new TaskShape(1000, 1024, 1, 300, Set.of());
  private static final List<TaskClass> HALVES = TargetWorkload.of(List.of(HALF));

  /** Two one-GPU nodes, the first already holding half a GPU. */
  private static SimCluster halfUsedAndIdle() {
    NodeSpec node = new NodeSpec("n", 8000, 32768, 1, "T4");
    SimCluster cluster = new SimCluster(List.of(node, new NodeSpec("m", 8000, 32768, 1, "T4")));
    cluster.bind(0, HALF, cluster.node(0).allocatorChoice(HALF).get(0));
    return cluster;
  }

  private static int placeThirty(String policy) {
    SimCluster cluster = halfUsedAndIdle();
    return new Placer(cluster, Policies.create(policy, HALVES), new SplittableRandom(1))
        .place(THIRTY).orElseThrow().node();
  }

  @Test
  void packingPoliciesPutASmallShareBesideAHalfWhileFgdKeepsTheRoomHalvesNeed() {
    assertThat(placeThirty("bestfit")).isZero();
    assertThat(placeThirty("gpupacking")).isZero();
    assertThat(placeThirty("fgd")).isEqualTo(1);
  }

  @Test
  void koord4jLearnsTheWorkloadAndAvoidsStrandingAsFgdDoes() {
    SimCluster cluster = halfUsedAndIdle();
    Placer placer = new Placer(cluster, Policies.create("koord4j", List.of()), new SplittableRandom(1));
    // The scheduler has seen halves; a third node takes them, so the two nodes stay as they are.
    SimCluster learning = new SimCluster(List.of(new NodeSpec("x", 8000, 32768, 8, "T4")));
    PlacementPolicy koord4j = Policies.create("koord4j", List.of());
    Placer warmUp = new Placer(learning, koord4j, new SplittableRandom(1));
    for (int i = 0; i < 4; i++) {
      warmUp.place(HALF);
    }

    assertThat(new Placer(cluster, koord4j, new SplittableRandom(1)).place(THIRTY).orElseThrow().node())
        .isEqualTo(1);
    assertThat(placer.place(HALF).orElseThrow().node()).isZero();
  }

  @Test
  void aTaskNoNodeFitsIsNotPlacedAndHoldsNothing() {
    SimCluster cluster = halfUsedAndIdle();
    TaskShape nine = new TaskShape(1000, 1024, 9, 1000, Set.of());
    TaskShape wrongModel = new TaskShape(1000, 1024, 1, 1000, Set.of("A100"));

    for (String policy : Policies.NAMES) {
      Placer placer = new Placer(cluster, Policies.create(policy, HALVES), new SplittableRandom(1));
      assertThat(placer.place(nine)).as(policy).isEmpty();
      assertThat(placer.place(wrongModel)).as(policy).isEmpty();
    }
    assertThat(cluster.gpuAllocatedMilli()).isEqualTo(500);
  }

  @Test
  void unknownPoliciesAreNamedWithTheKnownOnes() {
    assertThatThrownBy(() -> Policies.create("tetris", HALVES))
        .hasMessage("--policies: unknown policy 'tetris'; known: "
            + "koord4j,fgd,bestfit,dotprod,gpupacking,gpuclustering,random");
  }
}
