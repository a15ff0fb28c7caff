package io.koord4j.kueue;

import static io.koord4j.kueue.KueueFixtures.gpuNode;
import static io.koord4j.kueue.KueueFixtures.gpuPod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.device.Device;
import io.koord4j.api.device.DeviceInfo;
import io.koord4j.api.device.DeviceSpec;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.Workload;
import io.koord4j.device.ClusterNode;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ClusterSnapshotTest {

  @Test
  void gpusHeldAreReadFromDeviceAllocatedAnnotations() {
    Pod holder = gpuPod("holder", "a", 4);
    holder.getMetadata().setAnnotations(Map.of("scheduling.koordinator.sh/device-allocated",
        "{\"gpu\":[" + String.join(",", IntStream.of(4, 5, 6, 7).mapToObj(ClusterSnapshotTest::allocated).toList()) + "]}"));

    ClusterNode node = only(ClusterSnapshot.of(List.of(gpuNode("a", 8)), List.of(holder), Map.of("a", device("a", 8))));

    assertThat(IntStream.range(0, 8).filter(minor -> node.gpuUsage().isFree(minor)).boxed().toList())
        .containsExactly(0, 1, 2, 3);
  }

  @Test
  void withoutDeviceObjectsGpusAreCountedFromRequests() {
    Pod finished = gpuPod("finished", "a", 8);
    finished.getStatus().setPhase("Succeeded");

    ClusterNode node = only(KueueFixtures.cluster(
        List.of(gpuNode("a", 8)), List.of(gpuPod("two", "a", 2), gpuPod("three", "a", 3), finished)));

    assertThat(IntStream.range(0, 8).filter(minor -> node.gpuUsage().isFree(minor)).count()).isEqualTo(3);
    assertThat(node.free().milliCpu()).isEqualTo(94_000);
    assertThat(node.free().pods()).isEqualTo(108);
    assertThat(node.gpus().devices()).hasSize(8);
  }

  @Test
  void aBoundPodWhoseRequestCannotBeReadIsLeftOutAndTheOthersStillCount() {
    Pod unreadable = gpuPod("unreadable", "a", 1);
    unreadable.getSpec().getContainers().get(0).getResources().getRequests().put("cpu", new Quantity("1e500000001"));

    ClusterNode node = only(KueueFixtures.cluster(List.of(gpuNode("a", 8)), List.of(unreadable, gpuPod("two", "a", 2))));

    assertThat(node.free().milliCpu()).isEqualTo(95_000);
    assertThat(IntStream.range(0, 8).filter(minor -> node.gpuUsage().isFree(minor)).count()).isEqualTo(6);
  }

  @Test
  void boundPodsAskingForMoreThanALongLeaveTheirNodeFullRatherThanWrappingRound() {
    Pod first = gpuPod("first", "a", 0);
    first.getSpec().getContainers().get(0).getResources().getRequests().put("cpu", new Quantity("9e15"));
    Pod second = gpuPod("second", "a", 0);
    second.getSpec().getContainers().get(0).getResources().getRequests().put("cpu", new Quantity("9e15"));

    ClusterNode node = only(KueueFixtures.cluster(List.of(gpuNode("a", 8)), List.of(first, second)));

    assertThat(node.free().milliCpu()).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void cordonedAndNotReadyNodesAreLeftOut() {
    Node cordoned = gpuNode("cordoned", 8);
    cordoned.setSpec(new NodeSpec());
    cordoned.getSpec().setUnschedulable(true);
    Node notReady = gpuNode("not-ready", 8);
    notReady.getStatus().getConditions().get(0).setStatus("False");

    ClusterSnapshot cluster = KueueFixtures.cluster(List.of(cordoned, notReady, gpuNode("a", 8)), List.of());

    assertThat(cluster.nodes(labels -> true)).extracting(ClusterNode::name).containsExactly("a");
  }

  @Test
  void boundPodsOfAWorkloadAreFoundByItsOwnerOrItsGang() {
    Workload workload = KueueFixtures.workload("train", 3, 8, AdmissionCheckState.READY, KueueFixtures.NOW);
    workload.getMetadata().setOwnerReferences(List.of(
        new OwnerReferenceBuilder().withKind("Job").withName("train").withUid("job-uid").withController(true).build()));
    Pod owned = gpuPod("train-0", "a", 8);
    owned.getMetadata().setOwnerReferences(workload.getMetadata().getOwnerReferences());
    Pod unbound = gpuPod("train-1", null, 8);
    unbound.getMetadata().setOwnerReferences(workload.getMetadata().getOwnerReferences());

    ClusterSnapshot cluster = KueueFixtures.cluster(List.of(gpuNode("a", 8)), List.of(owned, unbound));

    assertThat(cluster.boundPods(workload)).isEqualTo(1);
  }

  private static ClusterNode only(ClusterSnapshot cluster) {
    List<ClusterNode> nodes = cluster.nodes(labels -> true);
    assertThat(nodes).hasSize(1);
    return nodes.get(0);
  }

  private static String allocated(int minor) {
    return "{\"minor\":" + minor + ",\"id\":\"GPU-" + minor + "\",\"resources\":{\"koordinator.sh/gpu-core\":\"100\","
        + "\"koordinator.sh/gpu-memory-ratio\":\"100\",\"koordinator.sh/gpu-memory\":\"80Gi\"}}";
  }

  private static Device device(String node, int gpus) {
    DeviceSpec spec = new DeviceSpec();
    spec.setDevices(IntStream.range(0, gpus).mapToObj(minor -> {
      DeviceInfo info = new DeviceInfo();
      info.setType(DeviceInfo.TYPE_GPU);
      info.setId("GPU-" + minor);
      info.setMinor(minor);
      info.setHealth(true);
      info.setResources(Map.of("koordinator.sh/gpu-memory", new Quantity("80Gi")));
      return info;
    }).toList());
    Device device = new Device();
    device.setMetadata(new ObjectMetaBuilder().withName(node).build());
    device.setSpec(spec);
    return device;
  }
}
