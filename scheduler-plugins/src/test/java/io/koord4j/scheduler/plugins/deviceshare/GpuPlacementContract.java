package io.koord4j.scheduler.plugins.deviceshare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.scheduler.GpuFixtures;
import io.koord4j.scheduler.SchedulerTestBed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The GPU placement rules, checked on the real local control plane against a scheduler that a
 * subclass starts: KWOK nodes whose Device objects describe eight H100 GPUs (two per PCIe switch,
 * four per NUMA node) with the NVLink partition table; each bound pod's GPUs are read from its
 * {@code device-allocated} annotation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class GpuPlacementContract {

  private static final List<List<Integer>> H100_PARTITIONS =
      List.of(
          List.of(0, 1, 2, 3, 4, 5, 6, 7),
          List.of(0, 1, 2, 3),
          List.of(4, 5, 6, 7),
          List.of(0, 1),
          List.of(2, 3),
          List.of(4, 5),
          List.of(6, 7));

  private SchedulerTestBed bed;
  private String schedulerName;
  private final List<String> devices = new ArrayList<>();

  /**
   * Starts the scheduler under test, under a name of its own so that no other scheduler on the
   * shared cluster takes these pods.
   *
   * @return the scheduler name the test's pods carry
   */
  protected abstract String startScheduler(SchedulerTestBed bed) throws Exception;

  /**
   * Makes the scheduler retry its pending pods after {@code node}'s GPUs changed (its Device
   * object, or a pod that held some is gone), for a scheduler that would not notice by itself.
   */
  protected void retryPendingOn(String node) {}

  protected SchedulerTestBed bed() {
    return bed;
  }

  @BeforeAll
  public void start() throws Exception {
    bed = new SchedulerTestBed("gpu-placement-it");
    schedulerName = startScheduler(bed);
  }

  @AfterAll
  public void stop() {
    if (bed != null) {
      devices.forEach(name -> bed.client().resources(Device.class).withName(name).delete());
      bed.close();
    }
  }

  @Test
  public void wholeGpuPodsGetDistinctMinorsEachInsideOneNvlinkPartition() {
    String node = h100Node("whole", UnaryOperator.identity());
    List<String> pods = List.of("four", "two", "one-a", "one-b");
    Map<String, String> sizes = Map.of("four", "4", "two", "2", "one-a", "1", "one-b", "1");
    for (String name : pods) {
      create(name, "whole", Map.of(WellKnown.NVIDIA_GPU, sizes.get(name)), Map.of());
    }

    List<Integer> taken = new ArrayList<>();
    for (String name : pods) {
      Pod bound = bed.awaitBound(name);
      assertThat(bound.getSpec().getNodeName()).isEqualTo(node);
      List<Integer> minors = allocatedMinors(bound);
      assertThat(minors).hasSize(Integer.parseInt(sizes.get(name)));
      if (minors.size() > 1) {
        assertThat(H100_PARTITIONS).as("%s got %s", name, minors).contains(minors);
      }
      taken.addAll(minors);
    }
    assertThat(taken).doesNotHaveDuplicates().hasSize(8);
  }

  @Test
  public void fractionalPodsShareOneGpuUpToAHundredPercentAndNeverBeyond() {
    String node = bed.addNodes("shared", 1, "ds-" + bed.run() + "-s", "--gpus", "1").get(0);
    createDevice(node, GpuFixtures.device(node, 1));
    Map<String, String> sixty = Map.of(WellKnown.GPU_CORE, "60", WellKnown.GPU_MEMORY_RATIO, "60");
    Map<String, String> forty = Map.of(WellKnown.GPU_CORE, "40", WellKnown.GPU_MEMORY_RATIO, "40");
    create("sixty", "shared", sixty, Map.of());
    create("forty", "shared", forty, Map.of());
    assertThat(allocatedMinors(bed.awaitBound("sixty"))).containsExactly(0);
    assertThat(allocatedMinors(bed.awaitBound("forty"))).containsExactly(0);

    create("beyond", "shared", forty, Map.of());

    assertThat(bed.awaitUnschedulable("beyond", Duration.ofSeconds(90)))
        .contains("0 GPUs with room for 40 % core and 40 % memory, 1 requested");
    assertThat(bed.nodeOf("beyond")).isEmpty();

    bed.client().pods().inNamespace(bed.namespace()).withName("sixty").withGracePeriod(0).delete();

    assertThat(allocatedMinors(bed.awaitBound("beyond", () -> retryPendingOn(node)))).containsExactly(0);
  }

  @Test
  public void aRequiredPcieScopeIsHonouredOrThePodWaitsWithAReason() {
    // GPUs 0, 2, 4 and 6 unhealthy: four healthy GPUs, no two on one PCIe switch.
    String node =
        h100Node(
            "pcie",
            device -> {
              device.getSpec().getDevices().forEach(gpu -> gpu.setHealth(gpu.getMinor() % 2 == 1));
              return device;
            });
    Map<String, String> pcie =
        Map.of(WellKnown.DEVICE_ALLOCATE_HINT, "{\"gpu\":{\"requiredTopologyScope\":\"PCIe\"}}");
    create("scoped", "pcie", Map.of(WellKnown.NVIDIA_GPU, "2"), pcie);

    assertThat(bed.awaitUnschedulable("scoped", Duration.ofSeconds(90)))
        .contains("no PCIe switch with 2 free GPUs (required scope PCIe)");
    assertThat(bed.nodeOf("scoped")).isEmpty();

    // GPU 2 recovers: its switch now has two healthy GPUs, and the Device change retries the pod.
    bed.client()
        .resources(Device.class)
        .withName(node)
        .edit(
            device -> {
              device.getSpec().getDevices().get(2).setHealth(true);
              return device;
            });

    assertThat(allocatedMinors(bed.awaitBound("scoped", () -> retryPendingOn(node)))).containsExactly(2, 3);
  }

  @Test
  public void aGangOfGpuPodsBindsAllOrNothing() {
    h100Node("gang-big", UnaryOperator.identity());
    h100Node("gang", UnaryOperator.identity());
    // Two members of eight GPUs on one 8-GPU node: one could bind alone, the gang cannot.
    List<String> big = List.of("big-0", "big-1");
    big.forEach(name -> create(name, "gang-big", Map.of(WellKnown.NVIDIA_GPU, "8"), gang("big", 2)));
    List<String> pairs = List.of("pair-0", "pair-1", "pair-2", "pair-3");
    pairs.forEach(name -> create(name, "gang", Map.of(WellKnown.NVIDIA_GPU, "2"), gang("pairs", 4)));

    List<Integer> taken = new ArrayList<>();
    for (String name : pairs) {
      List<Integer> minors = allocatedMinors(bed.awaitBound(name));
      assertThat(H100_PARTITIONS).as("%s got %s", name, minors).contains(minors);
      taken.addAll(minors);
    }
    assertThat(taken).doesNotHaveDuplicates().hasSize(8);
    // The big gang's placed member waited its 4 s at Permit and was sent back: none bound.
    await().atMost(Duration.ofSeconds(60)).until(() -> big.stream().anyMatch(this::sentBackFromPermit));
    assertThat(big).allMatch(name -> bed.nodeOf(name).isEmpty());
  }

  /** Whether the pod's PodScheduled condition says that it waited at Permit in vain. */
  private boolean sentBackFromPermit(String name) {
    Pod pod = bed.get(name);
    return pod.getStatus() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "PodScheduled".equals(c.getType())
                && "False".equals(c.getStatus())
                && c.getMessage() != null
                && c.getMessage().contains("at Permit"));
  }

  private static Map<String, String> gang(String name, int minMember) {
    return Map.of(
        WellKnown.GANG_NAME, name,
        WellKnown.GANG_MIN_AVAILABLE, Integer.toString(minMember),
        WellKnown.GANG_MODE, "Strict",
        WellKnown.GANG_WAITING_TIME, "4s");
  }

  /** An 8-GPU H100 KWOK node of its own pool and its Device object, changed by {@code edit}. */
  private String h100Node(String pool, UnaryOperator<Device> edit) {
    String node =
        bed.addNodes(
                pool, 1, "ds-" + bed.run() + "-" + pool, "--gpus", "8", "--gpu-model", "H100",
                "--cpu", "96", "--memory", "1Ti")
            .get(0);
    createDevice(node, edit.apply(GpuFixtures.h100Device(node)));
    return node;
  }

  /** Owned by its node, as the node agent writes it, so it goes when the node goes. */
  private void createDevice(String nodeName, Device device) {
    Node node = bed.client().nodes().withName(nodeName).get();
    device
        .getMetadata()
        .setOwnerReferences(
            List.of(
                new OwnerReferenceBuilder()
                    .withApiVersion("v1")
                    .withKind("Node")
                    .withName(nodeName)
                    .withUid(node.getMetadata().getUid())
                    .build()));
    devices.add(nodeName);
    bed.client().resource(device).create();
  }

  private void create(
      String name, String pool, Map<String, String> gpus, Map<String, String> annotations) {
    Pod pod = GpuFixtures.withGpus(bed.pod(name, schedulerName, pool, "1"), gpus);
    pod.getMetadata().setAnnotations(annotations);
    bed.client().resource(pod).create();
  }

  private List<Integer> allocatedMinors(Pod pod) {
    String allocated = pod.getMetadata().getAnnotations().get(WellKnown.DEVICE_ALLOCATED);
    assertThat(allocated).as("%s on %s", WellKnown.DEVICE_ALLOCATED, pod.getMetadata().getName()).isNotNull();
    return GpuFixtures.minors(allocated);
  }
}
