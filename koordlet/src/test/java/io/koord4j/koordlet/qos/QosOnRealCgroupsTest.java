package io.koord4j.koordlet.qos;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.slo.NodeSLO;
import io.koord4j.api.slo.NodeSLOSpec;
import io.koord4j.api.slo.ResourceThresholdStrategy;
import io.koord4j.koordlet.cgroup.CgroupFiles;
import io.koord4j.koordlet.cgroup.CgroupLayout;
import io.koord4j.koordlet.cgroup.KubeQos;
import io.koord4j.koordlet.cgroup.RealCgroups;
import io.koord4j.koordlet.metrics.ProcFiles;
import io.koord4j.koordlet.metrics.ProcFormats;
import io.koord4j.koordlet.metrics.UsageCollector;
import io.koord4j.koordlet.states.NodeView;
import io.koord4j.testing.TestPods;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * CPU suppression, memory eviction and batch cgroup values acting on real cgroups made by the test,
 * with real processes in them; the cluster side (Node, pods, NodeSLO) is given as objects.
 */
class QosOnRealCgroupsTest {
  private static final String SERVICE = "22222222-aaaa-4bbb-8ccc-000000000001";
  private static final String BATCH = "22222222-aaaa-4bbb-8ccc-000000000002";

  @Test
  void theBeQuotaFallsWhenTheServiceBurnsAndTheBatchPodFollows() throws Exception {
    try (RealCgroups cgroups = RealCgroups.v1()) {
      CgroupLayout layout = cgroups.layout();
      CgroupFiles files = new CgroupFiles(layout);
      long cpus = Runtime.getRuntime().availableProcessors();
      // at 100 % the BE share is what the node has left after the service and everything else
      View view = serviceAndBatch(cgroups, node(cpus + "", "64Gi"), slo(100));
      UsageCollector collector = collector(files);
      CpuSuppressor suppressor = new CpuSuppressor(view, collector, files);
      // one burner per core: the batch pod wants every core, so a quota of a whole core, which is
      // what a service burning one core leaves on a two-core machine, still holds it back
      List<Process> batch = new ArrayList<>();
      for (int i = 0; i < cpus; i++) {
        batch.add(cgroups.burnCpuIn(layout.podDir(KubeQos.BEST_EFFORT, BATCH)));
      }

      rounds(collector, suppressor, view, 8);
      long quotaAlone = files.cpuQuotaUs(layout.qosDir(KubeQos.BEST_EFFORT));
      // the service burns one core: BE can only be seen to lose it if more than a core is left to BE
      Assumptions.assumeTrue(quotaAlone > CpuSuppression.quotaUs(1_000) + 4 * CpuSuppression.MIN_QUOTA_US,
          "other processes on this machine leave BE less than a core, so it has no core to lose; quota " + quotaAlone);
      double batchAlone = coresUsed(batch);
      Process service = cgroups.burnCpuIn(layout.podDir(KubeQos.GUARANTEED, SERVICE));
      rounds(collector, suppressor, view, 8);
      long quotaSuppressed = files.cpuQuotaUs(layout.qosDir(KubeQos.BEST_EFFORT));
      double serviceUsed = collector.podsLatest().get(SERVICE).cpuCores();
      double batchSuppressed = coresUsed(batch);

      assertThat(suppressor.writtenQuotaUs()).isEqualTo(quotaSuppressed);
      assertThat(quotaSuppressed).isLessThan(quotaAlone);
      // by the formula: capacity minus at least most of what the service uses, never below the floor
      long bound = CpuSuppression.quotaUs(Math.round(cpus * 1000 - serviceUsed * 1000 * 0.8));
      assertThat(quotaSuppressed).isBetween(CpuSuppression.MIN_QUOTA_US, bound);
      // the kernel holds the batch pod to the quota, measured on its process
      assertThat(batchSuppressed).isLessThan(batchAlone).isLessThanOrEqualTo(quotaSuppressed / 100_000.0 + 0.05);
      batch.forEach(Process::destroy);
      service.destroy();
    }
  }

  @Test
  void memoryAboveTheThresholdEvictsTheBatchPodNotTheService() throws Exception {
    try (RealCgroups cgroups = RealCgroups.v1()) {
      CgroupLayout layout = cgroups.layout();
      CgroupFiles files = new CgroupFiles(layout);
      // A node whose capacity makes today's real memory use 95 % of it: well above the 70 %
      // threshold, so that other processes of this machine freeing memory meanwhile do not matter.
      ProcFormats.MemInfo memory = new ProcFiles(Path.of("/proc")).memInfo();
      View view = serviceAndBatch(cgroups, node("4", Long.toString(memory.usedBytes() * 100 / 95)), enabledSlo());
      cgroups.burnCpuIn(layout.podDir(KubeQos.GUARANTEED, SERVICE), 32);
      cgroups.burnCpuIn(layout.podDir(KubeQos.BEST_EFFORT, BATCH), 48);
      // filling memory takes a busy machine a while; decide only once both pods hold theirs
      Awaitility.await().atMost(Duration.ofSeconds(60)).until(() ->
          files.memoryWorkingSetBytes(layout.podDir(KubeQos.GUARANTEED, SERVICE)) >= (32L << 20)
              && files.memoryWorkingSetBytes(layout.podDir(KubeQos.BEST_EFFORT, BATCH)) >= (48L << 20));
      UsageCollector collector = collector(files);
      for (int i = 0; i < 4; i++) {
        collector.collect(view.refs());
        Thread.sleep(400);
      }
      List<String> evicted = new ArrayList<>();
      List<String> messages = new ArrayList<>();
      MemoryEvictor evictor = new MemoryEvictor(view, collector, (pod, reason, message) -> {
        evicted.add(pod.getMetadata().getName());
        messages.add(reason + ": " + message);
        return true;
      }, Clock.systemUTC());

      MemoryEviction.Decision decision = evictor.run().orElseThrow();

      assertThat(decision.usagePercent()).as("this machine's memory use against the node's capacity").isGreaterThanOrEqualTo(70L);
      assertThat(evicted).containsExactly("batch");
      assertThat(messages.get(0))
          .startsWith("EvictPodByNodeMemoryUsage: ")
          .contains("BE eviction threshold 70%")
          .containsPattern("this pod uses ([2-9][0-9]) MiB");
      assertThat(evictor.run()).as("cooling down after an eviction").isEmpty();
    }
  }

  @Test
  void aBatchPodsCgroupTakesItsBatchRequestAndLimits() throws Exception {
    try (RealCgroups cgroups = RealCgroups.v1()) {
      CgroupLayout layout = cgroups.layout();
      String podDir = layout.podDir(KubeQos.BEST_EFFORT, BATCH);
      String containerId = "containerd://" + "c0ffee".repeat(10) + "c0ff";
      String containerDir = layout.containerDir(podDir, containerId);
      cgroups.mkdirs(containerDir);
      CgroupFiles files = new CgroupFiles(layout);
      View view = new View(node("4", "8Gi"), enabledSlo());
      Pod pod = pod(BATCH, "batch",
          Map.of("kubernetes.io/batch-cpu", "500", "kubernetes.io/batch-memory", "256Mi"),
          Map.of("kubernetes.io/batch-cpu", "500", "kubernetes.io/batch-memory", "256Mi"), "BE");
      pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder()
          .addNewContainerStatus().withName("main").withContainerID(containerId).endContainerStatus().build());
      view.pods.add(pod);
      Process burner = cgroups.burnCpuIn(containerDir);

      new BatchCgroupReconciler(view, files).run();

      for (String dir : List.of(podDir, containerDir)) {
        assertThat(files.read("cpu", dir, "cpu.shares").trim()).isEqualTo("512");
        assertThat(files.cpuQuotaUs(dir)).isEqualTo(50_000);
        assertThat(files.read("memory", dir, "memory.limit_in_bytes").trim()).isEqualTo(Long.toString(256L << 20));
      }
      long start = RealCgroups.processCpuNanos(burner);
      Thread.sleep(2_000);
      double cores = (RealCgroups.processCpuNanos(burner) - start) / 2e9;
      assertThat(cores).as("the kernel holds the pod to its batch-cpu limit").isLessThanOrEqualTo(0.5 + 0.05);
    }
  }

  /** A Guaranteed service pod and a BE batch pod, each with its cgroup. */
  private static View serviceAndBatch(RealCgroups cgroups, Node node, NodeSLO slo) throws java.io.IOException {
    cgroups.mkdirs(cgroups.layout().podDir(KubeQos.GUARANTEED, SERVICE));
    cgroups.mkdirs(cgroups.layout().podDir(KubeQos.BEST_EFFORT, BATCH));
    View view = new View(node, slo);
    view.pods.add(pod(SERVICE, "service", Map.of("cpu", "1", "memory", "1Gi"), Map.of("cpu", "1", "memory", "1Gi"), null));
    view.pods.add(pod(BATCH, "batch", Map.of(), Map.of(), "BE"));
    return view;
  }

  private static void rounds(UsageCollector collector, CpuSuppressor suppressor, View view, int rounds)
      throws InterruptedException {
    for (int i = 0; i < rounds; i++) {
      collector.collect(view.refs());
      suppressor.run();
      Thread.sleep(500);
    }
  }

  /** Cores the processes use over 1.5 s, from their own CPU time, while the quota stays as it is. */
  private static double coresUsed(List<Process> processes) throws Exception {
    long start = cpuNanos(processes);
    Thread.sleep(1_500);
    return (cpuNanos(processes) - start) / 1.5e9;
  }

  private static long cpuNanos(List<Process> processes) throws Exception {
    long sum = 0;
    for (Process process : processes) {
      sum += RealCgroups.processCpuNanos(process);
    }
    return sum;
  }

  private static UsageCollector collector(CgroupFiles files) {
    return new UsageCollector(new ProcFiles(Path.of("/proc")), files, Clock.systemUTC(), System::nanoTime, 120, 120);
  }

  private static Node node(String cpu, String memory) {
    return new NodeBuilder().withNewMetadata().withName("real-cgroups").endMetadata()
        .withNewStatus().withCapacity(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
        .withAllocatable(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory))).endStatus().build();
  }

  private static NodeSLO enabledSlo() {
    return slo(65);
  }

  private static NodeSLO slo(long cpuSuppressPercent) {
    ResourceThresholdStrategy strategy = new ResourceThresholdStrategy();
    strategy.setEnable(true);
    strategy.setCpuSuppressThresholdPercent(cpuSuppressPercent);
    strategy.setMemoryEvictThresholdPercent(70L);
    NodeSLOSpec spec = new NodeSLOSpec();
    spec.setResourceUsedThresholdWithBE(strategy);
    NodeSLO slo = new NodeSLO();
    slo.setSpec(spec);
    return slo;
  }

  private static Pod pod(String uid, String name, Map<String, String> requests, Map<String, String> limits, String qos) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace("default").withUid(uid)
        .withLabels(qos == null ? Map.of() : Map.of("koordinator.sh/qosClass", qos)).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withNewResources()
        .withRequests(TestPods.quantities(requests)).withLimits(TestPods.quantities(limits)).endResources().endContainer().endSpec()
        .build();
  }

  /** The cluster side as plain objects. */
  private static final class View implements NodeView {
    final Node node;
    final NodeSLO slo;
    final List<Pod> pods = new ArrayList<>();

    View(Node node, NodeSLO slo) {
      this.node = node;
      this.slo = slo;
    }

    List<io.koord4j.koordlet.metrics.PodRef> refs() {
      return pods.stream().map(pod -> new io.koord4j.koordlet.metrics.PodRef(
          pod.getMetadata().getUid(), "default", pod.getMetadata().getName(), KubeQos.of(pod))).toList();
    }

    @Override
    public Optional<Node> node() {
      return Optional.of(node);
    }

    @Override
    public List<Pod> pods() {
      return pods;
    }

    @Override
    public Optional<NodeSLO> nodeSlo() {
      return Optional.of(slo);
    }
  }
}
