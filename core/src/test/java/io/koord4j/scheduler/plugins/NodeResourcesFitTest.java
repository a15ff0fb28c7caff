package io.koord4j.scheduler.plugins;

import static io.koord4j.scheduler.Fixtures.nodeInfo;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.Fixtures;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeResourcesFitTest {

  private final NodeResourcesFit fit = new NodeResourcesFit();

  @Test
  void fitsWhileRequestsStayWithinAllocatable() {
    NodeInfo node = nodeInfo("n", "4", "8Gi").withUsage(ResourceVector.of("cpu", 3000), 1);
    assertThat(filter(pod("p", "1", "1Gi"), node)).isEqualTo(Status.SUCCESS);
    assertThat(filter(pod("p", "1001m", "1Gi"), node).reasons()).containsExactly("Insufficient cpu");
  }

  @Test
  void namesEveryShortResource() {
    Status status = filter(pod("p", "5", "9Gi"), nodeInfo("n", "4", "8Gi"));
    assertThat(status.reasons()).containsExactly("Insufficient cpu", "Insufficient memory");
  }

  @Test
  void checksExtendedResourcesAndThePodCount() {
    Pod gpuPod =
        new PodBuilder(pod("p", "1", "1Gi"))
            .editSpec()
            .editFirstContainer()
            .editResources()
            .addToRequests("nvidia.com/gpu", new Quantity("1"))
            .endResources()
            .endContainer()
            .endSpec()
            .build();
    assertThat(filter(gpuPod, nodeInfo("n", "4", "8Gi")).reasons())
        .containsExactly("Insufficient nvidia.com/gpu");
    NodeInfo full = nodeInfo("n", "4", "8Gi").withUsage(ResourceVector.EMPTY, 110);
    assertThat(filter(pod("p", "1", "1Gi"), full).reasons()).containsExactly("Too many pods");
  }

  @Test
  void countsTheLargestInitContainerAndOverhead() {
    Pod pod =
        new PodBuilder(pod("p", "1", "1Gi"))
            .editSpec()
            .addNewInitContainer()
            .withName("init")
            .withNewResources()
            .withRequests(Map.of("cpu", new Quantity("3")))
            .endResources()
            .endInitContainer()
            .withOverhead(Map.of("cpu", new Quantity("500m")))
            .endSpec()
            .build();
    assertThat(filter(pod, nodeInfo("n", "3", "8Gi")).reasons()).containsExactly("Insufficient cpu");
    assertThat(filter(pod, nodeInfo("n", "3500m", "8Gi"))).isEqualTo(Status.SUCCESS);
  }

  @Test
  void keepsBatchPodsOutOfTheRoomYarnMayStillFillAndNotOutOfWhatItNoLongerReserves() {
    String used = """
        {"name":"hadoop-yarn","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"1000"}}""";
    String reserved = """
        {"name":"hadoop-yarn-reserved","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"2000"}}""";
    // Origin 4 cores; the controller took off YARN's use of 1; a pod on the node requests half a core.
    Node node = new NodeBuilder(Fixtures.node("n", "8", "16Gi"))
        .editMetadata()
        .addToAnnotations(WellKnown.ORIGIN_EXTENDED_ALLOCATABLE, "{\"resources\":{\"kubernetes.io/batch-cpu\":\"4000\"}}")
        .endMetadata()
        .editStatus().addToAllocatable(WellKnown.BATCH_CPU, new Quantity("3000")).endStatus()
        .build();
    ResourceVector halfACore = ResourceVector.of(WellKnown.BATCH_CPU, 500);
    NodeInfo yarnReserves = NodeInfo.of(withAllocations(node, used + "," + reserved)).withUsage(halfACore, 1);

    assertThat(filter(batchPod("500"), yarnReserves)).isEqualTo(Status.SUCCESS);
    assertThat(filter(batchPod("501"), yarnReserves).reasons()).containsExactly("Insufficient " + WellKnown.BATCH_CPU);

    // YARN was lowered to its use and its reserved entry dropped: the rest of the allocatable is the pods'.
    NodeInfo yarnYielded = NodeInfo.of(withAllocations(node, used)).withUsage(halfACore, 1);
    assertThat(filter(batchPod("2500"), yarnYielded)).isEqualTo(Status.SUCCESS);
  }

  private static Node withAllocations(Node node, String entries) {
    return new NodeBuilder(node).editMetadata()
        .addToAnnotations(WellKnown.THIRD_PARTY_ALLOCATIONS, "{\"allocations\":[" + entries + "]}")
        .endMetadata().build();
  }

  @Test
  void scoresEmptierNodesHigher() {
    CycleState state = new CycleState();
    Pod pod = pod("p", "1", "1Gi");
    fit.preFilter(state, pod);
    long empty = fit.score(state, pod, nodeInfo("a", "4", "4Gi"));
    long busy =
        fit.score(
            state, pod, nodeInfo("b", "4", "4Gi").withUsage(ResourceVector.of("cpu", 2000), 1));
    assertThat(empty).isEqualTo(75);
    assertThat(busy).isEqualTo(50);
  }

  private static Pod batchPod(String milliCpu) {
    return new PodBuilder(pod("p", "0", "0"))
        .editSpec().editFirstContainer().editResources()
        .addToRequests(WellKnown.BATCH_CPU, new Quantity(milliCpu))
        .endResources().endContainer().endSpec()
        .build();
  }

  private Status filter(Pod pod, NodeInfo node) {
    CycleState state = new CycleState();
    fit.preFilter(state, pod);
    return fit.filter(state, pod, node);
  }
}
