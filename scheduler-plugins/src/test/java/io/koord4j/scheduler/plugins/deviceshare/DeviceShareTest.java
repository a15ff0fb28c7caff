package io.koord4j.scheduler.plugins.deviceshare;

import static io.koord4j.scheduler.GpuFixtures.gpuPod;
import static io.koord4j.scheduler.GpuFixtures.h100Device;
import static io.koord4j.scheduler.GpuFixtures.h100Node;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.Fixtures;
import io.koord4j.scheduler.GpuFixtures;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.plugins.NodeResourcesFit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DeviceShareTest {

  private static final Map<String, String> PCIE_REQUIRED =
      Map.of(WellKnown.DEVICE_ALLOCATE_HINT, "{\"gpu\":{\"requiredTopologyScope\":\"PCIe\"}}");

  private final SchedulerCache cache = new SchedulerCache(pod -> Optional.empty());
  private final Map<String, String> written = new HashMap<>();
  private final DeviceShare plugin =
      new DeviceShare(
          DeviceShare.GpuReservations.of(cache::reserveGpus, cache::releaseGpus),
          (pod, key, value) -> written.put(pod.getMetadata().getName() + " " + key, value));

  @Test
  void badGpuInputIsRejectedAtPreFilterNamingTheFieldAndTheRule() {
    Status status =
        plugin.preFilter(new CycleState(), gpuPod("odd", Map.of(WellKnown.KOORD_GPU, "150"), Map.of()));

    assertThat(status.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(status.message())
        .contains("default/odd", "resource koordinator.sh/gpu", "shares above 100 % must be whole GPUs");
  }

  @Test
  void wholeGpuPodsGetDistinctMinorsInsideOneNvlinkPartitionWrittenBeforeBinding() {
    addH100("n");
    List<List<Integer>> minors = new ArrayList<>();
    for (String name : List.of("a", "b", "c")) {
      Pod pod = gpuPod(name, Map.of(WellKnown.NVIDIA_GPU, "2"), Map.of());
      assertThat(schedule(pod, "n").isSuccess()).isTrue();
      minors.add(minorsWritten(name));
    }

    assertThat(minors).doesNotHaveDuplicates();
    assertThat(minors.stream().flatMap(List::stream)).doesNotHaveDuplicates();
    assertThat(minors).allMatch(pair -> List.of(List.of(0, 1), List.of(2, 3), List.of(4, 5), List.of(6, 7)).contains(pair));
    // The second pair goes next to the first, keeping the other half of the board whole.
    assertThat(minors.get(0).get(0) / 4).isEqualTo(minors.get(1).get(0) / 4);
  }

  @Test
  void fractionalPodsShareOneGpuUpToAHundredPercentAndNeverBeyond() {
    cache.upsertNode(h100Node("one"));
    cache.upsertDevice(GpuFixtures.device("one", 1));
    Map<String, String> sixty = Map.of(WellKnown.GPU_CORE, "60", WellKnown.GPU_MEMORY_RATIO, "60");
    Map<String, String> forty = Map.of(WellKnown.GPU_CORE, "40", WellKnown.GPU_MEMORY_RATIO, "40");

    assertThat(schedule(gpuPod("sixty", sixty, Map.of()), "one").isSuccess()).isTrue();
    assertThat(schedule(gpuPod("forty", forty, Map.of()), "one").isSuccess()).isTrue();
    Status third = filter(gpuPod("more", forty, Map.of()), "one");

    assertThat(minorsWritten("sixty")).containsExactly(0);
    assertThat(minorsWritten("forty")).containsExactly(0);
    assertThat(third.isRejection()).isTrue();
    assertThat(third.message()).isEqualTo("0 GPUs with room for 40 % core and 40 % memory, 1 requested");
  }

  @Test
  void aRequiredPcieScopeIsHonouredOrTheNodeIsRejectedWithTheReason() {
    addH100("n");
    // One GPU of every PCIe switch taken: four free GPUs, no two on one switch.
    for (int minor : List.of(0, 2, 4, 6)) {
      cache.upsertPod(boundWithAnnotation("held-" + minor, "n", minor));
    }
    Pod scoped = gpuPod("scoped", Map.of(WellKnown.NVIDIA_GPU, "2"), PCIE_REQUIRED);
    Pod unscoped = gpuPod("unscoped", Map.of(WellKnown.NVIDIA_GPU, "2"), Map.of());

    Status rejected = filter(scoped, "n");
    assertThat(rejected.isRejection()).isTrue();
    assertThat(rejected.message()).contains("no PCIe switch with 2 free GPUs", "required scope PCIe");
    assertThat(filter(unscoped, "n").isSuccess()).isTrue();

    cache.removePod(boundWithAnnotation("held-2", "n", 2).getMetadata().getUid());
    assertThat(schedule(scoped, "n").isSuccess()).isTrue();
    assertThat(minorsWritten("scoped")).containsExactly(2, 3);
  }

  @Test
  void unreserveAndForgetGiveTheGpusBack() {
    addH100("n");
    Pod eight = gpuPod("eight", Map.of(WellKnown.NVIDIA_GPU, "8"), Map.of());
    CycleState state = new CycleState();
    plugin.preFilter(state, eight);
    cache.assume(eight, "n");
    assertThat(plugin.reserve(state, eight, "n").isSuccess()).isTrue();
    assertThat(filter(gpuPod("late", Map.of(WellKnown.NVIDIA_GPU, "1"), Map.of()), "n").isRejection()).isTrue();

    plugin.unreserve(state, eight, "n");
    plugin.unreserve(state, eight, "n");
    cache.forget(eight.getMetadata().getUid());

    assertThat(filter(gpuPod("late", Map.of(WellKnown.NVIDIA_GPU, "8"), Map.of()), "n").isSuccess()).isTrue();
    assertThat(cache.gpuTotals()).isEqualTo(new SchedulerCache.GpuTotals(0, 8));
  }

  @Test
  void aBoundPodCountsOnceTheDeviceArrivesAndIsReleasedWhenItGoes() {
    cache.upsertNode(h100Node("n"));
    cache.upsertPod(boundWithAnnotation("early", "n", 5));
    cache.upsertDevice(h100Device("n"));

    assertThat(cache.gpuTotals()).isEqualTo(new SchedulerCache.GpuTotals(1, 8));
    cache.upsertPod(boundWithAnnotation("early", "n", 5)); // a status update counts nothing twice
    assertThat(cache.gpuTotals()).isEqualTo(new SchedulerCache.GpuTotals(1, 8));

    cache.removePod(boundWithAnnotation("early", "n", 5).getMetadata().getUid());
    assertThat(cache.gpuTotals()).isEqualTo(new SchedulerCache.GpuTotals(0, 8));
  }

  @Test
  void aBrokenDeviceObjectRejectsGpuPodsWithItsError() {
    cache.upsertNode(h100Node("n"));
    var device = h100Device("n");
    device.getSpec().getDevices().get(3).setMinor(null);
    cache.upsertDevice(device);

    Status status = filter(gpuPod("p", Map.of(WellKnown.NVIDIA_GPU, "1"), Map.of()), "n");

    assertThat(status.isRejection()).isTrue();
    assertThat(status.message()).contains("Device n", "has no minor");
  }

  @Test
  void scoresPackPodsOntoBusyNodesAndKeepWholePartitionsFree() {
    addH100("busy");
    addH100("idle");
    cache.upsertPod(boundWithAnnotation("held", "busy", 0));
    Pod one = gpuPod("one", Map.of(WellKnown.NVIDIA_GPU, "1"), Map.of());
    CycleState state = new CycleState();
    plugin.preFilter(state, one);

    assertThat(plugin.score(state, one, node("busy"))).isGreaterThan(plugin.score(state, one, node("idle")));
  }

  @Test
  void onGpuNodesWithoutPartitionsPodsGoWhereTheyStrandLeastOfWhatTheWorkloadNeeds() {
    for (String name : List.of("half-used", "idle")) {
      cache.upsertNode(Fixtures.node(name, "96", "1Ti"));
      cache.upsertDevice(GpuFixtures.device(name, 2));
    }
    String half =
        "{\"gpu\":[{\"minor\":0,\"resources\":{\"koordinator.sh/gpu-core\":\"50\","
            + "\"koordinator.sh/gpu-memory-ratio\":\"50\",\"koordinator.sh/gpu-memory\":\"40Gi\"}}]}";
    cache.upsertPod(Fixtures.boundTo(
        gpuPod("held", share(50), Map.of(WellKnown.DEVICE_ALLOCATED, half)), "half-used"));
    // The scheduler has been asked for halves of GPUs.
    for (int i = 0; i < 4; i++) {
      plugin.preFilter(new CycleState(), gpuPod("half-" + i, share(50), Map.of()));
    }
    Pod thirty = gpuPod("thirty", share(30), Map.of());
    CycleState state = new CycleState();
    plugin.preFilter(state, thirty);
    NodeResourcesFit fit = new NodeResourcesFit();
    fit.preFilter(state, thirty);

    // Packing would put 30 % beside the half and leave 20 % no half can use.
    assertThat(plugin.score(state, thirty, node("idle")))
        .isGreaterThan(plugin.score(state, thirty, node("half-used")));
    assertThat(fit.score(state, thirty, node("idle"))).isEqualTo(fit.score(state, thirty, node("half-used")));
    // A further half fills the half-used GPU: nothing is stranded and the fuller node wins.
    Pod another = gpuPod("another", share(50), Map.of());
    CycleState anotherState = new CycleState();
    plugin.preFilter(anotherState, another);
    assertThat(plugin.score(anotherState, another, node("half-used")))
        .isGreaterThanOrEqualTo(plugin.score(anotherState, another, node("idle")));
  }

  private static Map<String, String> share(int percent) {
    return Map.of(WellKnown.GPU_CORE, Integer.toString(percent), WellKnown.GPU_MEMORY_RATIO, Integer.toString(percent));
  }

  @Test
  void nodeResourcesFitLeavesNvidiaGpusToDeviceShareOnlyOnNodesWithADevice() {
    Pod pod = gpuPod("p", Map.of(WellKnown.NVIDIA_GPU, "1"), Map.of());
    NodeResourcesFit fit = new NodeResourcesFit();
    CycleState state = new CycleState();
    fit.preFilter(state, pod);
    NodeInfo countedFull =
        NodeInfo.of(h100Node("plain")).withUsage(ResourceVector.of(WellKnown.NVIDIA_GPU, 8), 8);
    addH100("n");
    NodeInfo withDevice = node("n").withUsage(ResourceVector.of(WellKnown.NVIDIA_GPU, 8), 8);

    assertThat(fit.filter(state, pod, countedFull).message()).isEqualTo("Insufficient nvidia.com/gpu");
    assertThat(fit.filter(state, pod, withDevice).isSuccess()).isTrue();
    assertThat(DeviceShare.handles(WellKnown.GPU_CORE, countedFull)).isTrue();
  }

  @Test
  void sharedGpusNeedADeviceObjectWhileCountedGpusDoNot() {
    cache.upsertNode(h100Node("plain"));
    Pod shared = gpuPod("s", Map.of(WellKnown.KOORD_GPU, "50"), Map.of());
    Pod counted = gpuPod("c", Map.of(WellKnown.NVIDIA_GPU, "1"), Map.of());

    assertThat(filter(shared, "plain").message()).isEqualTo("node(s) had no Device object for GPU placement");
    assertThat(filter(counted, "plain").isSuccess()).isTrue();
  }

  private void addH100(String name) {
    cache.upsertNode(h100Node(name));
    cache.upsertDevice(h100Device(name));
  }

  private NodeInfo node(String name) {
    return cache.snapshot().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
  }

  private Status filter(Pod pod, String nodeName) {
    CycleState state = new CycleState();
    Status pre = plugin.preFilter(state, pod);
    return pre.isSuccess() ? plugin.filter(state, pod, node(nodeName)) : pre;
  }

  /** Filter, Reserve and PreBind on one node, as the scheduling and binding cycles run them. */
  private Status schedule(Pod pod, String nodeName) {
    CycleState state = new CycleState();
    Status status = plugin.preFilter(state, pod);
    if (status.isSuccess()) {
      status = plugin.filter(state, pod, node(nodeName));
    }
    if (status.isSuccess()) {
      cache.assume(pod, nodeName);
      status = plugin.reserve(state, pod, nodeName);
    }
    return status.isSuccess() ? plugin.preBind(state, pod, nodeName) : status;
  }

  private List<Integer> minorsWritten(String podName) {
    return GpuFixtures.minors(written.get(podName + " " + WellKnown.DEVICE_ALLOCATED));
  }

  private static Pod boundWithAnnotation(String name, String nodeName, int minor) {
    String allocated =
        "{\"gpu\":[{\"minor\":" + minor + ",\"resources\":{\"koordinator.sh/gpu-core\":\"100\","
            + "\"koordinator.sh/gpu-memory-ratio\":\"100\",\"koordinator.sh/gpu-memory\":\"80Gi\"}}]}";
    Pod pod = gpuPod(name, Map.of(WellKnown.NVIDIA_GPU, "1"), Map.of(WellKnown.DEVICE_ALLOCATED, allocated));
    return Fixtures.boundTo(pod, nodeName);
  }
}
