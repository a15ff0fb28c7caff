package io.koord4j.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.manager.it.TestSchedulers;
import io.koord4j.manager.noderesource.NodeBatchResources;
import io.koord4j.scheduler.KoordScheduler;
import io.koord4j.yarn.sync.BatchResources;
import io.koord4j.yarn.sync.NodeManagerId;
import io.koord4j.yarn.sync.NodeManagerReport;
import io.koord4j.yarn.sync.ThirdPartyAllocations;
import io.koord4j.yarn.sync.YarnResources;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * YARN and Kubernetes batch pods sharing nodes: a real YARN (Hadoop's minicluster: a
 * ResourceManager, two NodeManagers and DistributedShell applications), the copilot, the manager's
 * batch-resources controller, which gives each of two KWOK nodes 4 cores and 4 GiB of batch
 * resources less what YARN uses there, and koord-scheduler placing Kubernetes batch pods by them,
 * kept out of the room YARN may still fill.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class YarnColocationIT {
  private static final long MIB = YarnOnKube.MIB;
  private static final String NODE_LABEL = "koord4j.io/yarn-colocation-it";
  private static final String HOSTNAME = "kubernetes.io/hostname";
  /** How long YARN and Kubernetes compete for the nodes: long enough for four batch pods to run. */
  private static final int SATURATION_SECONDS = 45;
  /** Half of each node's 8 cores and 8 GiB, the colocation config's reclaim threshold. */
  private static final BatchResources ORIGIN = new BatchResources(4000, 4096 * MIB);
  private static final BatchResources ONE_CORE = new BatchResources(1000, 512 * MIB);

  private static YarnOnKube kube;
  private static NodeBatchResources batchResources;
  private static KoordScheduler koordScheduler;
  private static String schedulerName;
  private static String nodeA;
  private static String nodeB;
  private static NodeManagerId nmA;
  private static NodeManagerId nmB;

  @BeforeAll
  static void start() throws Exception {
    kube = YarnOnKube.start("yarn-colocation-it");
    nmA = kube.nodeManagerA();
    nmB = kube.nodeManagerB();
    nodeA = kube.node("a");
    nodeB = kube.node("b");
    batchResources = NodeBatchResources.start(kube.client(), kube.namespace(), NODE_LABEL, kube.run(), 50, 50);
    for (String node : List.of(nodeA, nodeB)) {
      kube.createNode(node, "8", "8Gi", Map.of(NODE_LABEL, kube.run()));
      batchResources.systemUsage(node, BatchResources.ZERO);
    }
    kube.pairNodeManagers(nodeA, nodeB);
    for (String node : List.of(nodeA, nodeB)) {
      awaitAllocatable(node, ORIGIN);
    }
    schedulerName = "koord-scheduler-" + kube.namespace();
    koordScheduler = TestSchedulers.start(kube.client(), schedulerName);
    kube.startCopilot(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  @AfterAll
  static void stop() {
    if (koordScheduler != null) {
      koordScheduler.close();
    }
    if (batchResources != null) {
      batchResources.close();
      List.of(nodeA, nodeB).forEach(batchResources::deleteMetric);
    }
    if (kube != null) {
      kube.close();
    }
  }

  @Test
  @Order(1)
  void whileAnApplicationRunsEachNodeRecordsWhatYarnUsesWithinTwoSecondsAndItsBatchResourcesDropByExactlyThat()
      throws Exception {
    awaitTotal(nmA, new YarnResources(4, 4096));
    awaitTotal(nmB, new YarnResources(4, 4096));
    // Node A's system uses 2 cores and 2 GiB: the manager offers 2 cores and 2 GiB less, and so does the copilot to YARN.
    batchResources.systemUsage(nodeA, new BatchResources(2000, 2048 * MIB));
    // A Kubernetes batch pod on node B takes its request off YARN's share there.
    kube.createPod(kube.batchPod("batch-b", nodeB, ONE_CORE));
    awaitTotal(nmA, new YarnResources(2, 2048));
    awaitTotal(nmB, new YarnResources(3, 3584));
    Map<String, BatchResources> origins = Map.of(nodeA, new BatchResources(2000, 2048 * MIB), nodeB, ORIGIN);
    Map<String, NodeManagerId> nodeManagers = Map.of(nodeA, nmA, nodeB, nmB);

    // 1 + 8 containers of 1 vcore and 512 MiB on 2 + 3 vcores: YARN has to queue some of them.
    CompletableFuture<Boolean> app = kube.yarn().runSleepers(8, 512, 6);
    YarnResources maxA = YarnResources.ZERO;
    YarnResources maxB = YarnResources.ZERO;
    Map<String, Integer> checked = new HashMap<>();
    while (!app.isDone()) {
      Map<NodeManagerId, NodeManagerReport> reports = kube.yarn().reports();
      maxA = YarnOnKube.max(maxA, reports.get(nmA).used());
      maxB = YarnOnKube.max(maxB, reports.get(nmB).used());
      for (String node : List.of(nodeA, nodeB)) {
        NodeManagerId nodeManager = nodeManagers.get(node);
        YarnResources used = reports.get(nodeManager).used();
        if (!used.equals(YarnResources.ZERO) && used.equals(kube.yarn().reports().get(nodeManager).used())) {
          kube.awaitRecorded(node, used, nodeManager);
          awaitBatchLessWhatYarnUses(node, origins.get(node));
          checked.merge(node, 1, Integer::sum);
        }
      }
      TimeUnit.MILLISECONDS.sleep(500);
    }
    assertThat(app.get()).as("DistributedShell succeeded").isTrue();
    assertThat(checked).as("rounds in which each node's record and batch resources were checked against YARN")
        .containsOnlyKeys(nodeA, nodeB);
    // YARN schedules no more than the totals the copilot set.
    assertThat(maxA.vcores()).isPositive().isLessThanOrEqualTo(2);
    assertThat(maxA.memoryMib()).isLessThanOrEqualTo(2048);
    assertThat(maxB.vcores()).isPositive().isLessThanOrEqualTo(3);
    assertThat(maxB.memoryMib()).isLessThanOrEqualTo(3584);

    // When the application ends, the record and the batch resources go back: the node offers its origin again.
    await().atMost(Duration.ofSeconds(30)).until(() -> kube.yarn().reports().get(nmA).used().equals(YarnResources.ZERO)
        && kube.yarn().reports().get(nmB).used().equals(YarnResources.ZERO));
    for (String node : List.of(nodeA, nodeB)) {
      kube.awaitRecorded(node, YarnResources.ZERO, nodeManagers.get(node));
      awaitBatchLessWhatYarnUses(node, origins.get(node));
    }
    assertThat(batchResources.allocatable(nodeA)).isEqualTo(origins.get(nodeA));
    assertThat(batchResources.allocatable(nodeB)).isEqualTo(ORIGIN);
    // YARN keeps its whole total while nobody else asks: the record holds it, and koord-scheduler keeps out of it.
    assertThat(ThirdPartyAllocations.yarnHeld(allocations(nodeA))).isEqualTo(new YarnResources(2, 2048).toBatch());

    // A Kubernetes batch pod that asks for node A: YARN yields what it does not use, and koord-scheduler binds the pod.
    kube.createPod(askingPod("asks-a", nodeA));
    await().atMost(Duration.ofSeconds(60)).until(() ->
        nodeA.equals(kube.client().pods().inNamespace(kube.namespace()).withName("asks-a").get().getSpec().getNodeName()));
    // Once nobody waits, YARN gets back the rest of its share; the node still offers its origin less YARN's use.
    awaitTotal(nmA, new YarnResources(1, 1536));
    awaitAllocatable(nodeA, origins.get(nodeA));
  }

  /**
   * Both sides want more than the nodes have: a YARN application with more containers than fit, and
   * Kubernetes batch pods that keep waiting for each node, each running a few seconds. Every second,
   * what YARN holds on a node plus what the Kubernetes pods bound there request stays within the
   * node's batch resources.
   */
  @Test
  @Order(2)
  void yarnContainersAndKubernetesBatchPodsTogetherNeverExceedANodesBatchResources() throws Exception {
    batchResources.systemUsage(nodeA, BatchResources.ZERO);
    for (String pod : List.of("batch-b", "asks-a")) {
      kube.client().pods().inNamespace(kube.namespace()).withName(pod).withGracePeriod(0).delete();
    }
    awaitTotal(nmA, new YarnResources(4, 4096));
    awaitTotal(nmB, new YarnResources(4, 4096));

    CompletableFuture<Boolean> app = kube.yarn().runSleepers(24, 512, 5);
    await("YARN fills both nodes").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() ->
        kube.yarn().reports().values().stream().allMatch(report -> report.used().vcores() == report.total().vcores()));

    List<String> exceeded = new CopyOnWriteArrayList<>();
    List<String> failedSamples = new CopyOnWriteArrayList<>();
    AtomicInteger shared = new AtomicInteger();
    AtomicInteger samples = new AtomicInteger();
    Map<String, Long> boundSince = new HashMap<>();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(() -> {
      try {
        sampleNode(nodeA, nmA, exceeded, shared);
        sampleNode(nodeB, nmB, exceeded, shared);
        samples.incrementAndGet();
      } catch (Exception e) {
        failedSamples.add(e.toString());
      }
    }, 0, 1, TimeUnit.SECONDS);
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SATURATION_SECONDS);
    int created = 0;
    try {
      while (System.nanoTime() < end) {
        created = keepBatchPodsWaiting(created, boundSince);
        TimeUnit.MILLISECONDS.sleep(300);
      }
    } finally {
      // Not shutdownNow: an interrupted sample would fail a read that is not the system's fault.
      sampler.shutdown();
      sampler.awaitTermination(30, TimeUnit.SECONDS);
      kube.client().pods().inNamespace(kube.namespace()).withLabel("saturate", kube.run()).withGracePeriod(0).delete();
    }
    System.out.printf("saturation: %d samples, %d with YARN and Kubernetes on one node, %d batch pods ran, %d created%n",
        samples.get(), shared.get(), boundSince.size(), created);

    assertThat(exceeded).as("samples in which a node was booked twice").isEmpty();
    assertThat(failedSamples).as("samples that could not be taken").isEmpty();
    assertThat(samples.get()).as("samples, one a second for " + SATURATION_SECONDS + " s")
        .isGreaterThanOrEqualTo(SATURATION_SECONDS - 5);
    assertThat(boundSince).as("Kubernetes batch pods that ran").hasSizeGreaterThanOrEqualTo(4);
    assertThat(shared.get()).as("samples with YARN containers and Kubernetes pods on the same node").isPositive();
    assertThat(app.get(5, TimeUnit.MINUTES)).as("DistributedShell succeeded once Kubernetes stopped asking").isTrue();
  }

  /**
   * Keeps two batch pods waiting for each node and deletes each bound one after 4 s of running;
   * returns how many were created.
   */
  private static int keepBatchPodsWaiting(int created, Map<String, Long> boundSince) {
    List<Pod> pods = kube.client().pods().inNamespace(kube.namespace()).withLabel("saturate", kube.run()).list().getItems();
    long now = System.currentTimeMillis();
    for (Pod pod : pods) {
      String name = pod.getMetadata().getName();
      if (pod.getSpec().getNodeName() != null && boundSince.putIfAbsent(name, now) != null && now - boundSince.get(name) > 4000) {
        kube.client().pods().inNamespace(kube.namespace()).withName(name).withGracePeriod(0).delete();
      }
    }
    for (String node : List.of(nodeA, nodeB)) {
      long waiting = pods.stream()
          .filter(pod -> pod.getSpec().getNodeName() == null && node.equals(pod.getSpec().getNodeSelector().get(HOSTNAME)))
          .count();
      for (long i = waiting; i < 2; i++) {
        created++;
        kube.createPod(new PodBuilder(askingPod("saturate-" + created, node))
            .editMetadata().addToLabels("saturate", kube.run()).endMetadata()
            .build());
      }
    }
    return created;
  }

  /**
   * What YARN holds on the node plus what the Kubernetes pods bound there request. The pods are
   * read before and after YARN and the smaller sum kept, so that a hand-over between the reads is
   * not taken for an overlap.
   */
  private static void sampleNode(String node, NodeManagerId nodeManager, List<String> exceeded, AtomicInteger shared)
      throws Exception {
    BatchResources before = boundRequests(node);
    YarnResources yarnUsed = kube.yarn().reports().get(nodeManager).used();
    BatchResources after = boundRequests(node);
    BatchResources kube = new BatchResources(
        Math.min(before.milliCpu(), after.milliCpu()), Math.min(before.memoryBytes(), after.memoryBytes()));
    BatchResources sum = yarnUsed.toBatch().plus(kube);
    if (sum.milliCpu() > ORIGIN.milliCpu() || sum.memoryBytes() > ORIGIN.memoryBytes()) {
      exceeded.add(node + ": YARN " + yarnUsed + " + Kubernetes " + kube);
    }
    if (yarnUsed.vcores() > 0 && kube.milliCpu() > 0) {
      shared.incrementAndGet();
    }
  }

  private static BatchResources boundRequests(String node) {
    return kube.client().pods().inNamespace(kube.namespace()).withField("spec.nodeName", node).list().getItems().stream()
        .filter(pod -> !"node-manager".equals(pod.getMetadata().getLabels().get(NodeViews.COMPONENT_LABEL)))
        .flatMap(pod -> pod.getSpec().getContainers().stream())
        .map(container -> container.getResources().getRequests())
        .map(requests -> new BatchResources(
            Quantity.getAmountInBytes(requests.get(WellKnown.BATCH_CPU)).longValue(),
            Quantity.getAmountInBytes(requests.get(WellKnown.BATCH_MEMORY)).longValue()))
        .reduce(BatchResources.ZERO, BatchResources::plus);
  }

  private static void awaitTotal(NodeManagerId nodeManager, YarnResources total) {
    kube.awaitTotal(nodeManager, total, Duration.ofSeconds(10));
  }

  private static void awaitAllocatable(String node, BatchResources batch) {
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
        .untilAsserted(() -> assertThat(batchResources.allocatable(node)).isEqualTo(batch));
  }

  /** A batch pod of one core that koord-scheduler is to place on {@code node}. */
  private static Pod askingPod(String name, String node) {
    return new PodBuilder(kube.batchPod(name, null, ONE_CORE))
        .editSpec().withSchedulerName(schedulerName).withNodeSelector(Map.of(HOSTNAME, node)).endSpec()
        .build();
  }

  /**
   * Within 2 s the node's batch resources are its origin less exactly what its record says YARN
   * uses ({@code hadoop-yarn}); the room YARN may still fill is not taken off them.
   */
  private static void awaitBatchLessWhatYarnUses(String node, BatchResources origin) {
    await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .untilAsserted(() -> assertThat(batchResources.allocatable(node))
            .isEqualTo(origin.minus(kube.recorded(node).toBatch())));
  }

  private static String allocations(String node) {
    return kube.client().nodes().withName(node).get().getMetadata().getAnnotations().get(WellKnown.THIRD_PARTY_ALLOCATIONS);
  }

}
