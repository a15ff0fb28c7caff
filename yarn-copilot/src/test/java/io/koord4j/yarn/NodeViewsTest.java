package io.koord4j.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddressBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.yarn.sync.BatchResources;
import io.koord4j.yarn.sync.NodeManagerId;
import io.koord4j.yarn.sync.NodeView;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NodeViewsTest {
  private static final long GIB = 1L << 30;
  private static final NodeManagerPolicy POLICY = new NodeManagerPolicy(Set.of("hadoop"), Set.of("yarn-nm"));

  @Test
  void originIsTheNodesBatchAllocatable() {
    assertThat(only(node("n", Map.of())).yarnShare()).isEqualTo(new BatchResources(6000, 12 * GIB));
  }

  @Test
  void koordinatorsOriginRecordWinsOverAllocatableThatHadThirdPartiesTakenOff() {
    Node node = node("n", Map.of(WellKnown.ORIGIN_EXTENDED_ALLOCATABLE,
        "{\"resources\":{\"kubernetes.io/batch-cpu\":\"10k\",\"kubernetes.io/batch-memory\":\"20Gi\"}}"));

    assertThat(only(node).yarnShare()).isEqualTo(new BatchResources(10_000, 20 * GIB));
  }

  @Test
  void aNodeWithoutBatchResourcesHasNone() {
    Node bare = new NodeBuilder().withNewMetadata().withName("n").endMetadata().build();

    assertThat(only(bare).yarnShare()).isEqualTo(BatchResources.ZERO);
  }

  @Test
  void aWaitingPodMayGoToNodesItsSelectorMatches() {
    Node node = new NodeBuilder().withNewMetadata().withName("n").withLabels(Map.of("pool", "batch", "zone", "a"))
        .endMetadata().build();

    assertThat(NodeViews.mayGoTo(selecting(null), node)).isTrue();
    assertThat(NodeViews.mayGoTo(selecting(Map.of("pool", "batch")), node)).isTrue();
    assertThat(NodeViews.mayGoTo(selecting(Map.of("pool", "batch", "zone", "b")), node)).isFalse();
  }

  @Test
  void aNodeManagerPodOfTheConfiguredNamespaceAndAccountNamingItsOwnNodeIsTaken() {
    Node node = node("worker-1", Map.of());
    Pod nodeManager = nodeManager("hadoop", "yarn-nm", "worker-1:8041", "1", "1Gi");

    NodeViews.Reading reading = read(node, nodeManager);

    assertThat(reading.nodes()).singleElement().extracting(NodeView::nodeManager)
        .isEqualTo(Optional.of(new NodeManagerId(NodeManagerId.DEFAULT_CLUSTER, "worker-1", 8041)));
    assertThat(reading.nodes().get(0).yarnShare()).as("its own requests are YARN's").isEqualTo(new BatchResources(6000, 12 * GIB));
    assertThat(reading.warnings()).isEmpty();
  }

  @Test
  void aNodeManagerMayNameItsNodeByAnyOfItsAddressesInAnyCase() {
    Node node = node("worker-1", Map.of());
    node.getStatus().setAddresses(List.of(
        new NodeAddressBuilder().withType("InternalIP").withAddress("10.0.0.7").build(),
        new NodeAddressBuilder().withType("Hostname").withAddress("worker-1.example.com").build()));

    assertThat(NodeViews.isHostOf("10.0.0.7", node)).isTrue();
    assertThat(NodeViews.isHostOf("Worker-1.Example.com", node)).isTrue();
    assertThat(NodeViews.isHostOf("worker-2", node)).isFalse();
  }

  @Test
  void aLabelledPodOutsideTheNodeManagerNamespacesIsAnOrdinaryPodWhoseRequestsCount() {
    Node node = node("worker-1", Map.of());
    Pod impostor = nodeManager("team-a", "yarn-nm", "worker-1:8041", "2000", "2Gi");

    NodeViews.Reading reading = read(node, impostor);

    assertThat(reading.nodes()).singleElement().satisfies(view -> {
      assertThat(view.nodeManager()).isEmpty();
      assertThat(view.yarnShare()).isEqualTo(new BatchResources(4000, 10 * GIB));
    });
    assertThat(reading.warnings()).containsExactly(Map.entry("pod team-a/nm",
        "not taken as a NodeManager: namespace team-a is not among the NodeManager namespaces [hadoop]"));
  }

  @Test
  void aLabelledPodRunningAsAnotherServiceAccountIsNotTaken() {
    Pod otherAccount = nodeManager("hadoop", "default", "worker-1:8041", "0", "0");

    NodeViews.Reading reading = read(node("worker-1", Map.of()), otherAccount);

    assertThat(reading.nodes()).singleElement().extracting(NodeView::nodeManager).isEqualTo(Optional.empty());
    assertThat(reading.warnings()).containsExactly(Map.entry("pod hadoop/nm",
        "not taken as a NodeManager: ServiceAccount default is not among the NodeManager ServiceAccounts [yarn-nm]"));
  }

  @Test
  void aNodeManagerNamingAnotherNodesHostLeavesItsNodeAsItIs() {
    Pod elsewhere = nodeManager("hadoop", "yarn-nm", "worker-2:8041", "0", "0");

    NodeViews.Reading reading = read(node("worker-1", Map.of()), elsewhere);

    assertThat(reading.nodes()).isEmpty();
    assertThat(reading.warnings()).containsExactly(Map.entry("node worker-1",
        "left as it is: NodeManager pod hadoop/nm: annotation yarn.hadoop.apache.org/node-id names host"
            + " worker-2, which is neither the name nor an address of node worker-1"));
  }

  @Test
  void aPodWhoseBatchRequestCannotBeReadIsLeftOutNamingTheFieldWhileTheOthersStillCount() {
    Node a = node("a", Map.of());
    Node b = node("b", Map.of());
    Map<String, List<Pod>> pods = Map.of(
        "a", List.of(batchPod("huge", "1e500000001", "1Gi"), batchPod("small", "1000", "1Gi")),
        "b", List.of(batchPod("other", "2000", "2Gi")));

    NodeViews.Reading reading = NodeViews.read(POLICY, List.of(a, b), pods::get, List.of());

    assertThat(reading.nodes()).extracting(NodeView::yarnShare)
        .containsExactly(new BatchResources(5000, 11 * GIB), new BatchResources(4000, 10 * GIB));
    assertThat(reading.warnings()).containsExactly(Map.entry("pod team-a/huge",
        "left out of this round: spec.containers[0].resources.limits[kubernetes.io/batch-cpu]:"
            + " \"1e500000001\" has exponent 500000001, beyond the ±64 a quantity may have"));
  }

  @Test
  void aWaitingPodWhoseBatchRequestCannotBeReadDoesNotMakeYarnYield() {
    Pod unreadable = batchPod("huge", "1000", "1e500000001");

    NodeViews.Reading reading = NodeViews.read(POLICY, List.of(node("n", Map.of())), name -> List.of(), List.of(unreadable));

    assertThat(reading.nodes()).singleElement().extracting(NodeView::batchPodsWaiting).isEqualTo(false);
    assertThat(reading.warnings()).containsOnlyKeys("pod team-a/huge");
  }

  @Test
  void podsAskingForMoreThanALongLeaveYarnNothingRatherThanWrappingRound() {
    Pod first = batchPod("first", "1000", "9e18");
    Pod second = batchPod("second", "1000", "9e18");

    assertThat(only(node("n", Map.of()), first, second).yarnShare()).isEqualTo(new BatchResources(4000, 0));
  }

  private static NodeViews.Reading read(Node node, Pod... pods) {
    return NodeViews.read(POLICY, List.of(node), name -> List.of(pods), List.of());
  }

  private static NodeView only(Node node, Pod... pods) {
    return read(node, pods).nodes().get(0);
  }

  /** A pending pod of {@code team-a}, unbound until the caller lists it on a node. */
  private static Pod batchPod(String name, String batchCpu, String batchMemory) {
    Map<String, Quantity> batch = Map.of(
        WellKnown.BATCH_CPU, new Quantity(batchCpu), WellKnown.BATCH_MEMORY, new Quantity(batchMemory));
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace("team-a").endMetadata()
        .withNewSpec()
        .addNewContainer().withName("main").withNewResources().withRequests(batch).withLimits(batch).endResources()
        .endContainer()
        .endSpec()
        .withNewStatus().withPhase("Pending").endStatus()
        .build();
  }

  private static Pod nodeManager(String namespace, String account, String nodeId, String batchCpu, String batchMemory) {
    Map<String, Quantity> batch = Map.of(
        WellKnown.BATCH_CPU, new Quantity(batchCpu), WellKnown.BATCH_MEMORY, new Quantity(batchMemory));
    return new PodBuilder()
        .withNewMetadata().withName("nm").withNamespace(namespace)
        .addToLabels(NodeViews.COMPONENT_LABEL, NodeViews.NODE_MANAGER)
        .addToAnnotations(NodeManagerId.NODE_ID_ANNOTATION, nodeId)
        .endMetadata()
        .withNewSpec().withServiceAccountName(account).withNodeName("worker-1")
        .addNewContainer().withName("nm").withNewResources().withRequests(batch).endResources().endContainer()
        .endSpec()
        .build();
  }

  private static Pod selecting(Map<String, String> nodeSelector) {
    return new PodBuilder().withNewMetadata().withName("p").endMetadata()
        .withNewSpec().withNodeSelector(nodeSelector).endSpec().build();
  }

  private static Node node(String name, Map<String, String> annotations) {
    return new NodeBuilder()
        .withNewMetadata().withName(name).withAnnotations(annotations).endMetadata()
        .withNewStatus()
        .withAllocatable(Map.of(
            "cpu", new Quantity("8"),
            "kubernetes.io/batch-cpu", new Quantity("6000"),
            "kubernetes.io/batch-memory", new Quantity("12Gi")))
        .endStatus()
        .build();
  }
}
