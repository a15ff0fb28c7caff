package io.koord4j.device;

import static io.koord4j.device.GpuNodes.wholeGpusUsed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Two H100 nodes of eight GPUs; n1 has its first half taken. */
class GangPlacementTest {
  private static final NodeResources ALLOCATABLE = new NodeResources(96_000, 1024L << 30, 110);

  private final NodeGpuInventory n1 = GpuNodes.h100("n1");
  private final NodeGpuInventory n2 = GpuNodes.h100("n2");
  private final List<ClusterNode> halfUsed =
      List.of(
          new ClusterNode(n1, wholeGpusUsed(n1, 0, 1, 2, 3), ALLOCATABLE, new NodeResources(48_000, 512L << 30, 100)),
          new ClusterNode(n2, NodeGpuUsage.NONE, ALLOCATABLE, ALLOCATABLE));

  private static PodSetRequest workers(int count, int gpus) {
    return new PodSetRequest("workers", count, 8_000, 64L << 30, GpuRequest.wholeGpus(gpus));
  }

  @Test
  void twoEightGpuPodsDoNotFitNowButFitOnceTheOtherPodsAreGone() {
    GangFeasibility now = GangPlacement.check(halfUsed, List.of(workers(2, 8)));

    assertThat(now.fitsNow()).isFalse();
    assertThat(now.fitsWhenEmpty()).isTrue();
    assertThat(now.reason())
        .isEqualTo(
            "pod set workers: 1 of 2 pods placed; node n1: 4 free GPUs, 8 requested;"
                + " node n2: 0 free GPUs, 8 requested");

    List<ClusterNode> released = halfUsed.stream().map(ClusterNode::emptied).toList();
    GangFeasibility later = GangPlacement.check(released, List.of(workers(2, 8)));
    assertThat(later.fitsNow()).isTrue();
    assertThat(later.placements()).extracting(PodPlacement::nodeName).containsExactly("n1", "n2");
  }

  @Test
  void aGangBiggerThanTheClusterNeverFits() {
    GangFeasibility feasibility = GangPlacement.check(halfUsed, List.of(workers(3, 8)));

    assertThat(feasibility.fitsNow()).isFalse();
    assertThat(feasibility.fitsWhenEmpty()).isFalse();
  }

  @Test
  void biggestPodsArePlacedFirstAndEachGetsItsOwnGpus() {
    PodSetRequest launcher = new PodSetRequest("launcher", 1, 2_000, 4L << 30, null);
    GangFeasibility feasibility =
        GangPlacement.check(halfUsed, List.of(launcher, workers(4, 2), new PodSetRequest(
            "ps", 1, 4_000, 8L << 30, GpuRequest.wholeGpus(4))));

    assertThat(feasibility.fitsNow()).isTrue();
    assertThat(feasibility.placements())
        .extracting(PodPlacement::podSet)
        .containsExactly("ps", "workers", "workers", "workers", "workers", "launcher");
    PodPlacement ps = feasibility.placements().get(0);
    assertThat(ps.nodeName()).isEqualTo("n1");
    assertThat(ps.gpus().minors()).containsExactly(4, 5, 6, 7);
    assertThat(feasibility.placements().subList(1, 5))
        .allSatisfy(worker -> assertThat(worker.nodeName()).isEqualTo("n2"))
        .extracting(worker -> worker.gpus().minors())
        .containsExactly(List.of(0, 1), List.of(2, 3), List.of(4, 5), List.of(6, 7));
    assertThat(feasibility.placements().get(5).gpus()).isNull();
  }

  @Test
  void cpuAndPodSlotsCountToo() {
    PodSetRequest hungry = new PodSetRequest("cpu-heavy", 2, 60_000, 1L << 30, null);

    GangFeasibility feasibility = GangPlacement.check(halfUsed, List.of(hungry));

    assertThat(feasibility.fitsNow()).isFalse();
    assertThat(feasibility.fitsWhenEmpty()).isTrue();
    assertThat(feasibility.reason())
        .isEqualTo(
            "pod set cpu-heavy: 1 of 2 pods placed; node n1: cpu 48000m free, 60000m requested;"
                + " node n2: cpu 36000m free, 60000m requested");
  }
}
