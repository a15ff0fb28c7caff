package io.koord4j.device;

import static io.koord4j.device.GpuNodes.wholeGpusUsed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GpuAllocatorTest {
  private final NodeGpuInventory h100 = GpuNodes.h100("n1");

  private static List<Integer> minors(NodeGpuInventory node, NodeGpuUsage usage, GpuRequest request) {
    return GpuAllocator.allocate(node, usage, request).allocation().orElseThrow().minors();
  }

  private static String reason(NodeGpuInventory node, NodeGpuUsage usage, GpuRequest request) {
    AllocationOutcome outcome = GpuAllocator.allocate(node, usage, request);
    assertThat(outcome.isAllocated()).isFalse();
    return outcome.reason();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4, 8})
  void wholeGpuPodsTakeOneNvlinkPartitionOfTheirSize(int count) {
    List<Integer> minors = minors(h100, NodeGpuUsage.NONE, GpuRequest.wholeGpus(count));

    assertThat(minors).doesNotHaveDuplicates().hasSize(count);
    assertThat(h100.partitionTable().partitionsOfSize(count))
        .extracting(GpuPartition::minors)
        .contains(minors);
  }

  @Test
  void pairsFillUpSoThatAFourGpuPartitionStaysFree() {
    NodeGpuUsage usage = NodeGpuUsage.NONE;
    List<List<Integer>> taken = new ArrayList<>();
    for (int pod = 0; pod < 2; pod++) {
      GpuAllocation pair =
          GpuAllocator.allocate(h100, usage, GpuRequest.wholeGpus(2)).allocation().orElseThrow();
      taken.add(pair.minors());
      usage = usage.reserve(pair);
    }

    assertThat(taken).containsExactly(List.of(0, 1), List.of(2, 3));
    assertThat(minors(h100, usage, GpuRequest.wholeGpus(4))).containsExactly(4, 5, 6, 7);
  }

  @Test
  void singleGpuPodsCompleteBrokenPairsFirst() {
    NodeGpuUsage usage = wholeGpusUsed(h100, 0, 4);

    assertThat(minors(h100, usage, GpuRequest.wholeGpus(1))).containsExactly(1);
    assertThat(minors(h100, wholeGpusUsed(h100, 0, 1), GpuRequest.wholeGpus(1)))
        .as("taking 2 keeps the half {4-7} free")
        .containsExactly(2);
  }

  @Test
  void restrictedPodsOnlyTakeAPartitionWhileBestEffortFallsBackToTopology() {
    NodeGpuUsage oddMinorsUsed = wholeGpusUsed(h100, 1, 3, 5, 7);
    GpuRequest pair = GpuRequest.wholeGpus(2);

    assertThat(reason(h100, oddMinorsUsed, pair.withPartitionPolicy(PartitionAllocatePolicy.RESTRICTED)))
        .isEqualTo("node n1: no free NVLink partition of 2 GPUs (Restricted)");
    assertThat(minors(h100, oddMinorsUsed, pair))
        .as("no PCIe switch has two free GPUs, NUMA node 0 has")
        .containsExactly(0, 2);
    assertThat(reason(GpuNodes.h100Honor("n2"), wholeGpusUsed(h100, 1, 3, 5, 7), pair))
        .isEqualTo("node n2: no free NVLink partition of 2 GPUs (node policy Honor)");
  }

  @Test
  void restrictedPodsOnlyTakeTheBestAllocationScore() {
    NodeGpuInventory node =
        GpuNodes.withTable(
            h100,
            GpuPartitionTable.of(
                List.of(
                    new GpuPartition(List.of(0, 1), "NVLink", 0, 2),
                    new GpuPartition(List.of(2, 3), "NVLink", 0, 1))));
    NodeGpuUsage usage = wholeGpusUsed(node, 0);
    GpuRequest pair = GpuRequest.wholeGpus(2);

    assertThat(minors(node, NodeGpuUsage.NONE, pair)).containsExactly(0, 1);
    assertThat(minors(node, usage, pair)).containsExactly(2, 3);
    assertThat(reason(node, usage, pair.withPartitionPolicy(PartitionAllocatePolicy.RESTRICTED)))
        .isEqualTo("node n1: no free NVLink partition of 2 GPUs (Restricted)");
  }

  @Test
  void sizesWithoutAPartitionFallBackUnlessTheNodeHonorsPartitions() {
    assertThat(minors(h100, NodeGpuUsage.NONE, GpuRequest.wholeGpus(3)))
        .as("one NUMA node")
        .containsExactly(0, 1, 2);
    assertThat(reason(GpuNodes.h100Honor("n2"), NodeGpuUsage.NONE, GpuRequest.wholeGpus(3)))
        .isEqualTo("node n2: no NVLink partition of 3 GPUs in the partition table (node policy Honor)");
    assertThat(
            reason(
                GpuNodes.a100("n3"),
                NodeGpuUsage.NONE,
                GpuRequest.wholeGpus(1).withPartitionPolicy(PartitionAllocatePolicy.RESTRICTED)))
        .isEqualTo("node n3: no NVLink partition table (Restricted)");
  }

  @Test
  void requiredPcieScopeIsHonouredOrRejectedWithAReason() {
    NodeGpuInventory a100 = GpuNodes.a100("n1");
    GpuRequest pcie = GpuRequest.wholeGpus(2).withRequiredScope(TopologyScope.PCIE);

    assertThat(minors(a100, wholeGpusUsed(a100, 1, 3), pcie)).containsExactly(4, 5);
    assertThat(reason(a100, wholeGpusUsed(a100, 1, 3, 5, 7), pcie))
        .isEqualTo("node n1: no PCIe switch with 2 free GPUs (required scope PCIe)");
    assertThat(minors(a100, wholeGpusUsed(a100, 1, 3, 5, 7), GpuRequest.wholeGpus(2))).containsExactly(0, 2);
    assertThat(
            reason(
                a100,
                wholeGpusUsed(a100, 0, 5),
                GpuRequest.wholeGpus(4).withRequiredScope(TopologyScope.NUMA_NODE)))
        .isEqualTo("node n1: no NUMA node with 4 free GPUs (required scope NUMANode)");
  }

  @Test
  void partitionsMustLieInsideTheRequiredScope() {
    assertThat(minors(h100, NodeGpuUsage.NONE, GpuRequest.wholeGpus(4).withRequiredScope(TopologyScope.NUMA_NODE)))
        .containsExactly(0, 1, 2, 3);
    assertThat(reason(h100, NodeGpuUsage.NONE, GpuRequest.wholeGpus(4).withRequiredScope(TopologyScope.PCIE)))
        .isEqualTo("node n1: no PCIe switch with 4 free GPUs (required scope PCIe)");
  }

  @Test
  void topologyPrefersScopesAlreadyInUse() {
    NodeGpuInventory a100 = GpuNodes.a100("n1");

    assertThat(minors(a100, wholeGpusUsed(a100, 6), GpuRequest.wholeGpus(1))).containsExactly(7);
    assertThat(minors(a100, wholeGpusUsed(a100, 6), GpuRequest.wholeGpus(2))).containsExactly(4, 5);
  }

  @Test
  void fractionalPodsShareTheFullestGpuButNeverBeyondOneHundredPercent() {
    NodeGpuUsage usage = NodeGpuUsage.NONE;
    List<Integer> placed = new ArrayList<>();
    for (int pod = 0; pod < 4; pod++) {
      GpuAllocation allocation =
          GpuAllocator.allocate(h100, usage, GpuRequest.share(30, 30)).allocation().orElseThrow();
      placed.add(allocation.minors().get(0));
      usage = usage.reserve(allocation);
    }

    assertThat(placed).containsExactly(0, 0, 0, 1);
    assertThat(usage.of(0)).isEqualTo(new GpuShare(90, 90, 90 * GpuNodes.GPU_MEMORY / 100));
    assertThat(minors(h100, usage, GpuRequest.share(10, 10))).containsExactly(0);
    assertThat(minors(h100, usage, GpuRequest.share(40, 40))).containsExactly(1);
  }

  @Test
  void memoryInBytesIsCheckedAgainstTheGpuSize() {
    GpuRequest fiftyGi = new GpuRequest(
        1, 10, MemoryRequest.bytes(50L << 30), null, PartitionAllocatePolicy.BEST_EFFORT, 0);
    NodeGpuInventory oneGpu =
        new NodeGpuInventory("n1", List.of(h100.devices().get(0)), GpuPartitionTable.NONE, PartitionPolicy.PREFER, "H100");
    NodeGpuUsage usage =
        NodeGpuUsage.NONE.reserve(GpuAllocator.allocate(oneGpu, NodeGpuUsage.NONE, fiftyGi).allocation().orElseThrow());

    assertThat(reason(oneGpu, usage, fiftyGi))
        .isEqualTo("node n1: 0 GPUs with room for 10 % core and 50Gi memory, 1 requested");
  }

  @Test
  void wholeGpusNeedFreeHealthyGpus() {
    NodeGpuUsage shared = NodeGpuUsage.NONE.reserve(
        GpuAllocator.allocate(h100, NodeGpuUsage.NONE, GpuRequest.share(10, 10)).allocation().orElseThrow());

    assertThat(reason(h100, shared, GpuRequest.wholeGpus(8))).isEqualTo("node n1: 7 free GPUs, 8 requested");
    assertThat(reason(GpuNodes.withUnhealthy(h100, 3), NodeGpuUsage.NONE, GpuRequest.wholeGpus(8)))
        .isEqualTo("node n1: 7 healthy GPUs, 8 requested");
    assertThat(minors(GpuNodes.withUnhealthy(h100, 3), NodeGpuUsage.NONE, GpuRequest.wholeGpus(4)))
        .containsExactly(4, 5, 6, 7);
  }

  @Test
  void scoresPreferFullerNodesAndIntactPartitions() {
    GpuRequest four = GpuRequest.wholeGpus(4);
    int empty = GpuAllocator.score(h100, NodeGpuUsage.NONE, four);
    int halfUsed = GpuAllocator.score(h100, wholeGpusUsed(h100, 0, 1, 2, 3), four);
    int scattered = GpuAllocator.score(h100, wholeGpusUsed(h100, 0, 2), GpuRequest.wholeGpus(2));
    int paired = GpuAllocator.score(h100, wholeGpusUsed(h100, 0, 1), GpuRequest.wholeGpus(2));

    assertThat(halfUsed).isEqualTo(100);
    assertThat(empty).isEqualTo(75);
    assertThat(paired).isGreaterThan(scattered);
    assertThat(GpuAllocator.score(h100, wholeGpusUsed(h100, 0, 1, 2, 3, 4), four)).isZero();
  }

  @Test
  void fragmentationScoreKeepsRoomTheWorkloadNeedsWhereBestFitWouldStrandIt() {
    NodeGpuInventory plain = GpuNodes.withTable(h100, GpuPartitionTable.NONE);
    List<TaskClass> halves = List.of(new TaskClass(0, 0, 1, 50, 1));
    GpuRequest half = GpuRequest.share(50, 50);
    NodeGpuUsage oneHalfUsed =
        NodeGpuUsage.NONE.reserve(GpuAllocator.allocate(plain, NodeGpuUsage.NONE, half).allocation().orElseThrow());
    GpuRequest thirty = GpuRequest.share(30, 30);

    // Best-fit puts 30 % beside the half, leaving 20 % no half can use: 20 points of fragmentation.
    int thirtyBesideAHalf = score(plain, oneHalfUsed, thirty, halves);
    int thirtyOnAnIdleNode = score(plain, NodeGpuUsage.NONE, thirty, halves);

    assertThat(thirtyBesideAHalf).isEqualTo(40);
    assertThat(thirtyOnAnIdleNode).isEqualTo(50);
    // With no fragmentation either way, the fuller node wins.
    assertThat(score(plain, oneHalfUsed, half, halves))
        .isGreaterThanOrEqualTo(score(plain, NodeGpuUsage.NONE, half, halves));
    assertThat(score(plain, wholeGpusUsed(plain, 0, 1, 2, 3, 4, 5, 6, 7), half, halves)).isZero();
  }

  private static int score(NodeGpuInventory node, NodeGpuUsage usage, GpuRequest request, List<TaskClass> workload) {
    GpuFragmentation.FreeCapacity free = GpuFragmentation.FreeCapacity.of(node, usage, 64_000, 1L << 40);
    return GpuAllocator.fragmentationScore(node, usage, request, free, 1000, 1 << 30, workload);
  }
}
