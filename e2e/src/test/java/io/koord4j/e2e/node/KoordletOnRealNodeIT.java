package io.koord4j.e2e.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.NodeMetricStatus;
import io.koord4j.api.slo.NodeSLO;
import io.koord4j.api.slo.PodMetricInfo;
import io.koord4j.manager.noderesource.NodeBatchResources;
import io.koord4j.scheduler.KoordScheduler;
import io.koord4j.testing.LocalCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Colocation on the real node: koordlet runs there as a pod and governs real processes in the
 * kubelet's cgroups. A Guaranteed service and a BestEffort batch pod burn CPU; koordlet reports
 * them, holds the BestEffort cgroup to what Koordinator's suppress formula leaves, evicts the batch
 * pod under memory pressure, and the manager's batch resources let a batch-cpu pod in, whose
 * cgroups koordlet sets from its batch request.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KoordletOnRealNodeIT {
  private static final String NAMESPACE =
      "koordlet-real-" + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
  private static final Duration REPORT_INTERVAL = Duration.ofSeconds(5);
  private static final long CPU_SUPPRESS_PERCENT = 100;
  /** The real node is this machine: its CPUs are the node's capacity. */
  private static final long NODE_CPU_MILLI = Runtime.getRuntime().availableProcessors() * 1000L;
  /** Quota vs formula: both move with one-second samples of a shared machine. */
  private static final long QUOTA_TOLERANCE_US = 35_000;
  private static final Duration WINDOW = Duration.ofSeconds(5);
  private static final String BUSY_LOOP = "while :; do :; done";
  /** About a third of a core until /tmp/rise appears, then a full core. */
  private static final String SERVICE_SCRIPT =
      "while [ ! -e /tmp/rise ]; do timeout 0.1 sh -c '" + BUSY_LOOP + "'; sleep 0.2; done; exec sh -c '" + BUSY_LOOP + "'";
  /** Two loops, so that the batch pod could take both cores and only its quota holds it back. */
  private static final String BATCH_SCRIPT = "sh -c '" + BUSY_LOOP + "' & exec sh -c '" + BUSY_LOOP + "'";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static KubernetesClient client;
  private static int httpPort;

  @BeforeAll
  static void startKoordlet() {
    client = LocalCluster.client();
    LocalCluster.ensureCrds(client, "nodemetrics.slo.koordinator.sh", "nodeslos.slo.koordinator.sh");
    RealNode.upWithImages();
    client.resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
    KoordletPod.grantRights(client, NAMESPACE);
    client.resource(nodeMetric()).forceConflicts().serverSideApply();
    client.resource(nodeSlo()).forceConflicts().serverSideApply();
    httpPort = 20_000 + ThreadLocalRandom.current().nextInt(10_000);
    URI apiServer = URI.create(client.getConfiguration().getMasterUrl());
    client.resource(KoordletPod.pod(NAMESPACE, RealNode.NAME, apiServer, httpPort)).create();
    awaitRunning(KoordletPod.NAME);
    await().atMost(Duration.ofSeconds(90)).ignoreExceptions()
        .untilAsserted(() -> assertThat(http("/healthz").statusCode()).isEqualTo(200));
  }

  @AfterAll
  static void cleanUp() {
    if (client == null) {
      return;
    }
    System.out.println("koordlet log (tail):\n" + koordletLogTail());
    // Without its NodeSLO koordlet lifts the BE quota; once it is gone the test makes sure of it.
    client.resources(NodeSLO.class).withName(RealNode.NAME).delete();
    client.namespaces().withName(NAMESPACE).delete();
    await().atMost(Duration.ofSeconds(90))
        .until(() -> client.pods().inNamespace(NAMESPACE).withName(KoordletPod.NAME).get() == null);
    liftBestEffortQuota();
    removeBatchResources();
    KoordletPod.revokeRights(client, NAMESPACE);
    client.resources(NodeMetric.class).withName(RealNode.NAME).delete();
    client.close();
  }

  @Test
  @Order(1)
  void reportsBothPodsSuppressesTheBatchCgroupAsTheServiceRisesAndEvictsOnlyTheBatchPodUnderMemoryPressure()
      throws Exception {
    Pod service = client.resource(RealNode.shellPod(NAMESPACE, "service", SERVICE_SCRIPT,
        Map.of("cpu", "1", "memory", "64Mi"))).create();
    Pod batch = client.resource(RealNode.shellPod(NAMESPACE, "batch", BATCH_SCRIPT, Map.of())).create();
    service = awaitRunning(service.getMetadata().getName());
    batch = awaitRunning(batch.getMetadata().getName());
    assertThat(service.getStatus().getQosClass()).isEqualTo("Guaranteed");
    assertThat(batch.getStatus().getQosClass()).isEqualTo("BestEffort");

    // Both pods running: the NodeMetric shows them, measured, within two report intervals.
    Instant running = Instant.now();
    NodeMetricStatus status = awaitPodsReported(REPORT_INTERVAL.multipliedBy(2), "service", "batch");
    System.out.printf("NodeMetric showed both pods %d ms after they ran (report interval %d s)%n",
        Duration.between(running, Instant.now()).toMillis(), REPORT_INTERVAL.toSeconds());
    assertThat(podMetric(status, "service").getQos()).isEqualTo("LSR");
    assertThat(podMetric(status, "batch").getQos()).isEqualTo("BE");
    assertThat(podMetric(status, "batch").getPriority()).isEqualTo("koord-batch");

    String serviceCgroup = RealNode.podCgroup(service);
    String batchCgroup = RealNode.podCgroup(batch);
    CpuWindow before = awaitQuotaByFormula(serviceCgroup, batchCgroup);
    assertThat(http("/metrics").body()).contains("koordlet_be_cpu_quota_us").contains("koordlet_node_cpu_usage_cores");

    // The service rises from a third of a core to a full one: the BE share falls by as much.
    LocalCluster.script("kubectl", "exec", "-n", NAMESPACE, "service", "--", "touch", "/tmp/rise");
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(CpuWindow.measure(Duration.ofSeconds(2), serviceCgroup, batchCgroup).serviceCores())
            .isGreaterThan(before.serviceCores() + 0.3));
    CpuWindow after = awaitQuotaByFormula(serviceCgroup, batchCgroup);
    System.out.printf("before the rise: %s%nafter the rise:  %s%n", before, after);
    // The quota falls by the service's rise, down to the 2 ms floor. This machine's other tenants
    // move meanwhile; their change (system use, node minus pods) is taken into account. The fall
    // starts from what the formula gave before the rise: the quota set then may trail it by up to
    // the tolerance, as koordlet measures over windows of its own.
    double serviceRiseUs = (after.serviceCores() - before.serviceCores()) * 100_000;
    double othersChangeUs = (after.systemCores() - before.systemCores()) * 100_000;
    double beforeUs = before.expectedQuotaUs(NODE_CPU_MILLI, CPU_SUPPRESS_PERCENT, 0);
    double expectedAfterUs = Math.max(beforeUs - serviceRiseUs - othersChangeUs, CpuWindow.MIN_BEST_EFFORT_QUOTA_US);
    assertThat(after.bestEffortQuotaUs())
        .as("BE quota after the service rose by %.0f us and others changed by %.0f us (formula before: %.0f us)",
            serviceRiseUs, othersChangeUs, beforeUs)
        .isCloseTo(expectedAfterUs, offset((double) QUOTA_TOLERANCE_US));
    // The batch pod's measured CPU follows its quota down and stays within it. A CPU burner runs at
    // its quota where the machine leaves it that much: after the fall it runs at its new quota, or,
    // when the machine's other tenants took the rest, at the room they left it in the same window.
    double expectedBatchUs = Math.min(after.bestEffortQuotaUs(), after.roomForBatchCores(NODE_CPU_MILLI / 1000.0) * 100_000);
    assertThat(after.batchCores() * 100_000)
        .as("batch CPU after its quota fell from %.0f to %.0f us (it ran %.0f us before; %s)",
            before.bestEffortQuotaUs(), after.bestEffortQuotaUs(), before.batchCores() * 100_000, after)
        .isCloseTo(expectedBatchUs, offset(20_000.0));
    assertThat(after.batchCores()).isLessThanOrEqualTo(after.bestEffortQuotaUs() / 100_000 + 0.1);

    // Memory in use now lies above the eviction threshold: the batch pod goes, the service stays.
    long threshold = Math.max(1, memoryUsedPercent() - 5);
    patchThresholds(Map.of("memoryEvictThresholdPercent", threshold));
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      Pod current = client.pods().inNamespace(NAMESPACE).withName("batch").get();
      assertThat(current == null || current.getMetadata().getDeletionTimestamp() != null).isTrue();
    });
    // The event follows the eviction.
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(client.v1().events().inNamespace(NAMESPACE).list().getItems()).anySatisfy(event -> {
          assertThat(event.getInvolvedObject().getName()).isEqualTo("batch");
          assertThat(event.getReason()).isEqualTo("EvictPodByNodeMemoryUsage");
          assertThat(event.getMessage()).contains("BE eviction threshold " + threshold + "%");
        }));
    Pod serviceNow = client.pods().inNamespace(NAMESPACE).withName("service").get();
    assertThat(serviceNow.getMetadata().getDeletionTimestamp()).isNull();
    assertThat(serviceNow.getStatus().getPhase()).isEqualTo("Running");

    // Suppression off: koordlet lifts the quota it set.
    patchThresholds(Map.of("enable", false));
    await().atMost(Duration.ofSeconds(30)).until(() -> CpuWindow.currentBestEffortQuotaUs() == -1);
  }

  @Test
  @Order(2)
  void nodeOffersBatchResourcesFromTheReportedNodeMetricAndTheBatchPodGetsCgroupsFromItsBatchRequest() {
    // The CPU burners of the first test make room.
    client.pods().inNamespace(NAMESPACE).withName("service").delete();
    client.pods().inNamespace(NAMESPACE).withName("batch").delete();
    await().atMost(Duration.ofSeconds(60)).until(() -> client.pods().inNamespace(NAMESPACE).list().getItems().size() == 1);
    NodeBatchResources batch = NodeBatchResources.start(client, NAMESPACE, RealNode.LABEL, "true", 100, 65);
    String schedulerName = "koord-scheduler-" + NAMESPACE;
    try (KoordScheduler scheduler = new KoordScheduler(client, new SimpleMeterRegistry(),
        KoordScheduler.Options.defaults().withSchedulerName(schedulerName)
            .withBackoff(Duration.ofMillis(200), Duration.ofSeconds(2)))) {
      scheduler.start();
      awaitBatchResourcesByTheNodeMetric();

      Pod pod = client.resource(batchCpuPod(schedulerName)).create();
      pod = awaitRunning(pod.getMetadata().getName());
      String podCgroup = RealNode.podCgroup(pod);
      String containerCgroup = podCgroup + "/" + RealNode.containerId(pod);
      // 100 milli-cores of batch-cpu: shares 100 · 1024 / 1000, quota 10 ms per 100 ms; 96 MiB batch-memory.
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
        for (String cgroup : List.of(podCgroup, containerCgroup)) {
          assertThat(RealNode.read(RealNode.cgroup("cpu", cgroup).resolve("cpu.shares"))).isEqualTo("102");
          assertThat(RealNode.read(RealNode.cgroup("cpu", cgroup).resolve("cpu.cfs_quota_us"))).isEqualTo("10000");
          assertThat(RealNode.read(RealNode.cgroup("memory", cgroup).resolve("memory.limit_in_bytes")))
              .isEqualTo(Long.toString(96L << 20));
        }
      });
    } finally {
      batch.close();
    }
  }

  /**
   * Waits until the node's batch resources match what the formula gives for its current NodeMetric
   * (cpu: 100 % reclaimable, memory: 65 %), within the manager's 10 % update threshold.
   */
  private static void awaitBatchResourcesByTheNodeMetric() {
    await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
      Node node = client.nodes().withName(RealNode.NAME).get();
      NodeMetricStatus metric = client.resources(NodeMetric.class).withName(RealNode.NAME).get().getStatus();
      Map<String, Quantity> allocatable = node.getStatus().getAllocatable();
      assertThat(allocatable).containsKeys(WellKnown.BATCH_CPU, WellKnown.BATCH_MEMORY);
      long capacityMilli = milli(node.getStatus().getCapacity().get("cpu"));
      long capacityBytes = bytes(node.getStatus().getCapacity().get("memory"));
      long reservedBytes = capacityBytes - bytes(allocatable.get("memory"));
      long systemMilli = milli(metric.getNodeMetric().getSystemUsage().getResources().get("cpu"));
      long systemBytes = bytes(metric.getNodeMetric().getSystemUsage().getResources().get("memory"));
      long podsMilli = 0;
      long podsBytes = 0;
      for (PodMetricInfo pod : metric.getPodsMetric()) {
        if (!"koord-batch".equals(pod.getPriority()) && !"koord-free".equals(pod.getPriority())) {
          podsMilli += milli(pod.getPodUsage().getResources().get("cpu"));
          podsBytes += bytes(pod.getPodUsage().getResources().get("memory"));
        }
      }
      long expectedMilli = Math.max(0, capacityMilli - systemMilli - podsMilli);
      long expectedBytes =
          Math.max(0, capacityBytes * 65 / 100 - Math.max(systemBytes, reservedBytes) - podsBytes);
      System.out.printf("batch-cpu %s (NodeMetric gives %d), batch-memory %s (NodeMetric gives %d)%n",
          allocatable.get(WellKnown.BATCH_CPU), expectedMilli, allocatable.get(WellKnown.BATCH_MEMORY), expectedBytes);
      assertThat((double) bytes(allocatable.get(WellKnown.BATCH_CPU)))
          .isCloseTo(expectedMilli, offset(capacityMilli * 0.1 + 50));
      assertThat((double) bytes(allocatable.get(WellKnown.BATCH_MEMORY)))
          .isCloseTo(expectedBytes, offset(expectedBytes * 0.1 + (64 << 20)));
      assertThat(bytes(allocatable.get(WellKnown.BATCH_CPU)))
          .as("room for the 100m batch pod").isGreaterThanOrEqualTo(100);
    });
  }

  private static Pod batchCpuPod(String schedulerName) {
    Map<String, String> batch = Map.of(WellKnown.BATCH_CPU, "100", WellKnown.BATCH_MEMORY, "96Mi");
    return new PodBuilder(RealNode.shellPod(NAMESPACE, "batch-cpu", "exec sleep 3600", batch))
        .editMetadata().addToLabels(WellKnown.QOS_CLASS, "BE").endMetadata()
        .editSpec().withSchedulerName(schedulerName).endSpec()
        .build();
  }

  /** Measures windows until the BE quota matches the suppress formula of the same window's figures. */
  private static CpuWindow awaitQuotaByFormula(String serviceCgroup, String batchCgroup) {
    CpuWindow[] last = new CpuWindow[1];
    await().atMost(Duration.ofSeconds(90)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> {
          CpuWindow window = CpuWindow.measure(WINDOW, serviceCgroup, batchCgroup);
          long expected = window.expectedQuotaUs(NODE_CPU_MILLI, CPU_SUPPRESS_PERCENT, 0);
          System.out.printf("%s; formula %d us%n", window, expected);
          assertThat(window.bestEffortQuotaUs()).isPositive().isCloseTo(expected,
              offset((double) QUOTA_TOLERANCE_US));
          last[0] = window;
        });
    return last[0];
  }

  private static NodeMetricStatus awaitPodsReported(Duration within, String... pods) {
    NodeMetricStatus[] seen = new NodeMetricStatus[1];
    await().atMost(within).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
      NodeMetricStatus status = client.resources(NodeMetric.class).withName(RealNode.NAME).get().getStatus();
      assertThat(status).isNotNull();
      assertThat(status.getPodsMetric()).extracting(PodMetricInfo::getName).contains(pods);
      for (String pod : pods) {
        assertThat(milli(podMetric(status, pod).getPodUsage().getResources().get("cpu"))).as("cpu of %s", pod).isPositive();
      }
      seen[0] = status;
    });
    return seen[0];
  }

  private static PodMetricInfo podMetric(NodeMetricStatus status, String name) {
    return status.getPodsMetric().stream()
        .filter(p -> NAMESPACE.equals(p.getNamespace()) && p.getName().equals(name)).findFirst().orElseThrow();
  }

  private static Pod awaitRunning(String name) {
    await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> {
      Pod pod = client.pods().inNamespace(NAMESPACE).withName(name).get();
      assertThat(pod.getSpec().getNodeName()).as("node of %s", name).isEqualTo(RealNode.NAME);
      assertThat(pod.getStatus().getPhase()).as("phase of %s: %s", name, pod.getStatus()).isEqualTo("Running");
    });
    return client.pods().inNamespace(NAMESPACE).withName(name).get();
  }

  private static void patchThresholds(Map<String, Object> thresholds) {
    client.resources(NodeSLO.class).withName(RealNode.NAME).patch(PatchContext.of(PatchType.JSON_MERGE),
        Serialization.asJson(Map.of("spec", Map.of("resourceUsedThresholdWithBE", thresholds))));
  }

  private static NodeMetric nodeMetric() {
    return Serialization.unmarshal("""
        {"apiVersion": "slo.koordinator.sh/v1alpha1", "kind": "NodeMetric", "metadata": {"name": "%s"},
         "spec": {"metricCollectPolicy": {"reportIntervalSeconds": %d, "aggregateDurationSeconds": 10}}}
        """.formatted(RealNode.NAME, REPORT_INTERVAL.toSeconds()), NodeMetric.class);
  }

  /** Suppression on at 100 % of the node, eviction only above 100 % memory use until the test lowers it. */
  private static NodeSLO nodeSlo() {
    return Serialization.unmarshal("""
        {"apiVersion": "slo.koordinator.sh/v1alpha1", "kind": "NodeSLO", "metadata": {"name": "%s"},
         "spec": {"resourceUsedThresholdWithBE": {"enable": true, "cpuSuppressThresholdPercent": %d,
                  "memoryEvictThresholdPercent": 100}}}
        """.formatted(RealNode.NAME, CPU_SUPPRESS_PERCENT), NodeSLO.class);
  }

  /** The share of the node's memory capacity in use, as koordlet counts it (MemTotal − MemAvailable). */
  private static long memoryUsedPercent() throws java.io.IOException {
    Map<String, Long> kib = new HashMap<>();
    for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
      String[] fields = line.split("\\s+");
      kib.put(fields[0].replace(":", ""), Long.parseLong(fields[1]));
    }
    long capacity = bytes(client.nodes().withName(RealNode.NAME).get().getStatus().getCapacity().get("memory"));
    return (kib.get("MemTotal") - kib.get("MemAvailable")) * 1024 * 100 / capacity;
  }

  private static HttpResponse<String> http(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String koordletLogTail() {
    try {
      return client.pods().inNamespace(NAMESPACE).withName(KoordletPod.NAME).tailingLines(40).getLog();
    } catch (RuntimeException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** The batch resources the in-process controller wrote stay on the node after it stops. */
  private static void removeBatchResources() {
    Map<String, Object> gone = new HashMap<>();
    gone.put(WellKnown.BATCH_CPU, null);
    gone.put(WellKnown.BATCH_MEMORY, null);
    client.nodes().withName(RealNode.NAME).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
        Serialization.asJson(Map.of("status", Map.of("capacity", gone, "allocatable", gone))));
    Map<String, Object> annotation = new HashMap<>();
    annotation.put(WellKnown.ORIGIN_EXTENDED_ALLOCATABLE, null);
    client.nodes().withName(RealNode.NAME).patch(PatchContext.of(PatchType.JSON_MERGE),
        Serialization.asJson(Map.of("metadata", Map.of("annotations", annotation))));
  }

  /** Should koordlet have gone before lifting it, the BestEffort class gets its unlimited quota back. */
  private static void liftBestEffortQuota() {
    Path quota = RealNode.cgroupV2()
        ? RealNode.cgroup("cpu", "besteffort").resolve("cpu.max")
        : RealNode.cgroup("cpu", "besteffort").resolve("cpu.cfs_quota_us");
    try {
      Files.writeString(quota, RealNode.cgroupV2() ? "max" : "-1");
    } catch (java.io.IOException e) {
      System.out.println("cannot lift the BestEffort quota in " + quota + ": " + e.getMessage());
    }
  }

  private static long milli(Quantity quantity) {
    return Quantity.getAmountInBytes(quantity).multiply(java.math.BigDecimal.valueOf(1000)).longValue();
  }

  private static long bytes(Quantity quantity) {
    return Quantity.getAmountInBytes(quantity).longValue();
  }
}
