package io.koord4j.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import io.koord4j.testing.LocalCluster;
import io.koord4j.yarn.sync.BatchResources;
import io.koord4j.yarn.sync.NodeManagerId;
import io.koord4j.yarn.sync.NodeManagerReport;
import io.koord4j.yarn.sync.YarnResources;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
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
 * resources less what YARN holds there, and kube-scheduler placing Kubernetes batch pods by them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class YarnColocationIT {
  private static final long MIB = 1L << 20;
  private static final String RUN = UUID.randomUUID().toString().substring(0, 6);
  private static final String NAMESPACE = "yarn-colocation-it-" + RUN;
  private static final String NODE_A = "yarn-colocation-it-" + RUN + "-a";
  private static final String NODE_B = "yarn-colocation-it-" + RUN + "-b";
  private static final String NODE_LABEL = "koord4j.io/yarn-colocation-it";
  /** Half of each node's 8 cores and 8 GiB, the colocation config's reclaim threshold. */
  private static final BatchResources ORIGIN = new BatchResources(4000, 4096 * MIB);
  private static final BatchResources ONE_CORE = new BatchResources(1000, 512 * MIB);
  private static final String HOSTNAME = "kubernetes.io/hostname";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static KubernetesClient client;
  private static ChartAccount account;
  private static KubernetesClient copilotClient;
  private static NodeBatchResources batchResources;
  private static MiniYarn yarn;
  private static Copilot copilot;
  private static final PrometheusMeterRegistry METRICS = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private static NodeManagerId nmA;
  private static NodeManagerId nmB;

  @BeforeAll
  static void start() throws Exception {
    client = LocalCluster.client();
    client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
        .withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
    account = ChartAccount.install(client, "yc-it-" + RUN, NAMESPACE);
    copilotClient = account.client();
    yarn = MiniYarn.start("yarn-colocation-it", 2, Path.of("target", "yarn-colocation-it-conf"));
    List<NodeManagerId> nodeManagers = new ArrayList<>(yarn.reports().keySet());
    nmA = nodeManagers.get(0);
    nmB = nodeManagers.get(1);
    batchResources = NodeBatchResources.start(client, NAMESPACE, NODE_LABEL, RUN);
    for (String node : List.of(NODE_A, NODE_B)) {
      createNode(node);
      batchResources.systemUsage(node, BatchResources.ZERO);
    }
    createPod(nodeManagerPod("nm-a", NODE_A, nmA));
    createPod(nodeManagerPod("nm-b", NODE_B, nmB));
    for (String node : List.of(NODE_A, NODE_B)) {
      awaitAllocatable(node, ORIGIN);
    }
    copilot = new Copilot(copilotClient, ClusterConfigs.load(yarn.confDir()), Duration.ofSeconds(1), METRICS);
    copilot.start();
  }

  @AfterAll
  static void stop() {
    if (copilot != null) {
      copilot.close();
    }
    if (batchResources != null) {
      batchResources.close();
      List.of(NODE_A, NODE_B).forEach(batchResources::deleteMetric);
    }
    if (copilotClient != null) {
      copilotClient.close();
    }
    if (client != null) {
      if (account != null) {
        account.close();
      }
      client.namespaces().withName(NAMESPACE).delete();
      for (String node : List.of(NODE_A, NODE_B)) {
        client.nodes().withName(node).delete();
      }
      client.close();
    }
    if (yarn != null) {
      yarn.close();
    }
  }

  @Test
  @Order(1)
  void whileAnApplicationRunsEachNodeRecordsWhatYarnUsesThereWithinTwoSecondsAndItsBatchResourcesDropAsMuch()
      throws Exception {
    awaitTotal(nmA, new YarnResources(4, 4096));
    awaitTotal(nmB, new YarnResources(4, 4096));
    // Node A's system uses 2 cores and 2 GiB: the manager offers 2 cores and 2 GiB less, and so does the copilot to YARN.
    batchResources.systemUsage(NODE_A, new BatchResources(2000, 2048 * MIB));
    // A Kubernetes batch pod on node B takes its request off YARN's share there.
    createPod(batchPod("batch-b", NODE_B, ONE_CORE));
    awaitTotal(nmA, new YarnResources(2, 2048));
    awaitTotal(nmB, new YarnResources(3, 3584));

    // 1 + 8 containers of 1 vcore and 512 MiB on 2 + 3 vcores: YARN has to queue some of them.
    CompletableFuture<Boolean> app = yarn.runSleepers(8, 512, 6);
    YarnResources maxA = YarnResources.ZERO;
    YarnResources maxB = YarnResources.ZERO;
    int checked = 0;
    while (!app.isDone()) {
      Map<NodeManagerId, NodeManagerReport> reports = yarn.reports();
      YarnResources usedA = reports.get(nmA).used();
      maxA = max(maxA, usedA);
      maxB = max(maxB, reports.get(nmB).used());
      if (!usedA.equals(YarnResources.ZERO) && usedA.equals(yarn.reports().get(nmA).used())) {
        awaitRecorded(NODE_A, usedA, nmA);
        awaitBatchLessRecorded(NODE_A, new BatchResources(2000, 2048 * MIB));
        checked++;
      }
      TimeUnit.MILLISECONDS.sleep(500);
    }
    assertThat(app.get()).as("DistributedShell succeeded").isTrue();
    assertThat(checked).as("rounds in which node A's record was checked against YARN").isPositive();
    // YARN schedules no more than the totals the copilot set.
    assertThat(maxA.vcores()).isPositive().isLessThanOrEqualTo(2);
    assertThat(maxA.memoryMib()).isLessThanOrEqualTo(2048);
    assertThat(maxB.vcores()).isPositive().isLessThanOrEqualTo(3);
    assertThat(maxB.memoryMib()).isLessThanOrEqualTo(3584);

    await().atMost(Duration.ofSeconds(30)).until(() -> yarn.reports().get(nmA).used().equals(YarnResources.ZERO)
        && yarn.reports().get(nmB).used().equals(YarnResources.ZERO));
    awaitRecorded(NODE_A, YarnResources.ZERO, nmA);
    awaitRecorded(NODE_B, YarnResources.ZERO, nmB);
    awaitAllocatable(NODE_A, new BatchResources(2000, 2048 * MIB));
    awaitAllocatable(NODE_B, ORIGIN);
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
    batchResources.systemUsage(NODE_A, BatchResources.ZERO);
    client.pods().inNamespace(NAMESPACE).withName("batch-b").withGracePeriod(0).delete();
    awaitTotal(nmA, new YarnResources(4, 4096));
    awaitTotal(nmB, new YarnResources(4, 4096));

    CompletableFuture<Boolean> app = yarn.runSleepers(24, 512, 5);
    await("YARN fills both nodes").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() ->
        yarn.reports().values().stream().allMatch(report -> report.used().vcores() == report.total().vcores()));

    List<String> exceeded = new ArrayList<>();
    AtomicInteger shared = new AtomicInteger();
    AtomicInteger samples = new AtomicInteger();
    Map<String, Long> boundSince = new HashMap<>();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
    long nextSample = System.nanoTime();
    int created = 0;
    while (System.nanoTime() < end) {
      created = keepBatchPodsWaiting(created, boundSince);
      if (System.nanoTime() >= nextSample) {
        for (String node : List.of(NODE_A, NODE_B)) {
          sampleNode(node, node.equals(NODE_A) ? nmA : nmB, exceeded, shared);
        }
        samples.incrementAndGet();
        nextSample += TimeUnit.SECONDS.toNanos(1);
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    client.pods().inNamespace(NAMESPACE).withLabel("saturate", RUN).withGracePeriod(0).delete();

    assertThat(exceeded).as("samples in which a node was booked twice").isEmpty();
    assertThat(samples.get()).isGreaterThanOrEqualTo(40);
    assertThat(boundSince).as("Kubernetes batch pods that ran").hasSizeGreaterThanOrEqualTo(4);
    assertThat(shared.get()).as("samples with YARN containers and Kubernetes pods on the same node").isPositive();
    assertThat(app.get(5, TimeUnit.MINUTES)).as("DistributedShell succeeded once Kubernetes stopped asking").isTrue();
  }

  /**
   * Keeps two batch pods waiting for each node and deletes each bound one after 4 s of running;
   * returns how many were created.
   */
  private static int keepBatchPodsWaiting(int created, Map<String, Long> boundSince) {
    List<Pod> pods = client.pods().inNamespace(NAMESPACE).withLabel("saturate", RUN).list().getItems();
    long now = System.currentTimeMillis();
    for (Pod pod : pods) {
      String name = pod.getMetadata().getName();
      if (pod.getSpec().getNodeName() != null && boundSince.putIfAbsent(name, now) != null && now - boundSince.get(name) > 4000) {
        client.pods().inNamespace(NAMESPACE).withName(name).withGracePeriod(0).delete();
      }
    }
    for (String node : List.of(NODE_A, NODE_B)) {
      long waiting = pods.stream()
          .filter(pod -> pod.getSpec().getNodeName() == null && node.equals(pod.getSpec().getNodeSelector().get(HOSTNAME)))
          .count();
      for (long i = waiting; i < 2; i++) {
        created++;
        createPod(new PodBuilder(batchPod("saturate-" + created, null, ONE_CORE))
            .editMetadata().addToLabels("saturate", RUN).endMetadata()
            .editSpec().withNodeSelector(Map.of(HOSTNAME, node)).endSpec()
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
    YarnResources yarnUsed = yarn.reports().get(nodeManager).used();
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
    return client.pods().inNamespace(NAMESPACE).withField("spec.nodeName", node).list().getItems().stream()
        .filter(pod -> !"node-manager".equals(pod.getMetadata().getLabels().get(KubeView.COMPONENT_LABEL)))
        .flatMap(pod -> pod.getSpec().getContainers().stream())
        .map(container -> container.getResources().getRequests())
        .map(requests -> new BatchResources(
            Quantity.getAmountInBytes(requests.get(WellKnown.BATCH_CPU)).longValue(),
            Quantity.getAmountInBytes(requests.get(WellKnown.BATCH_MEMORY)).longValue()))
        .reduce(BatchResources.ZERO, BatchResources::plus);
  }

  private static void awaitTotal(NodeManagerId nodeManager, YarnResources total) {
    awaitTotal(nodeManager, total, Duration.ofSeconds(10));
  }

  private static void awaitTotal(NodeManagerId nodeManager, YarnResources total, Duration atMost) {
    await().atMost(atMost).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
        .untilAsserted(() -> assertThat(yarn.reports().get(nodeManager).total()).isEqualTo(total));
  }

  private static void awaitAllocatable(String node, BatchResources batch) {
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
        .untilAsserted(() -> assertThat(batchResources.allocatable(node)).isEqualTo(batch));
  }

  /**
   * Within 2 s the node's record equals {@code used}, or what YARN uses there by then if its
   * containers changed meanwhile.
   */
  private static void awaitRecorded(String node, YarnResources used, NodeManagerId nodeManager) {
    await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> assertThat(recorded(node)).isIn(used, yarn.reports().get(nodeManager).used()));
  }

  /** Within 2 s the node's batch resources are its origin less what its record says YARN holds. */
  private static void awaitBatchLessRecorded(String node, BatchResources origin) {
    await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .untilAsserted(() -> assertThat(batchResources.allocatable(node)).isEqualTo(origin.minus(recorded(node).toBatch())));
  }

  private static YarnResources recorded(String node) throws Exception {
    String annotation = client.nodes().withName(node).get().getMetadata().getAnnotations().get(WellKnown.THIRD_PARTY_ALLOCATIONS);
    if (annotation == null) {
      return null;
    }
    for (JsonNode allocation : JSON.readTree(annotation).path("allocations")) {
      if ("hadoop-yarn".equals(allocation.path("name").asText())) {
        JsonNode resources = allocation.path("resources");
        long milli = Quantity.getAmountInBytes(new Quantity(resources.path(WellKnown.BATCH_CPU).asText())).longValue();
        long bytes = Quantity.getAmountInBytes(new Quantity(resources.path(WellKnown.BATCH_MEMORY).asText())).longValue();
        return new YarnResources(milli / 1000, bytes / MIB);
      }
    }
    return null;
  }

  private static YarnResources max(YarnResources a, YarnResources b) {
    return new YarnResources(Math.max(a.vcores(), b.vcores()), Math.max(a.memoryMib(), b.memoryMib()));
  }

  /** A KWOK node of 8 cores and 8 GiB, tainted so that no other test's pods land on it. */
  private static void createNode(String name) {
    Map<String, Quantity> capacity = Map.of("cpu", new Quantity("8"), "memory", new Quantity("8Gi"), "pods", new Quantity("30"));
    Node node = new NodeBuilder()
        .withNewMetadata().withName(name)
        .addToAnnotations("kwok.x-k8s.io/node", "fake")
        .addToLabels(Map.of(HOSTNAME, name, "type", "kwok", NODE_LABEL, RUN))
        .endMetadata()
        .withNewSpec().addNewTaint().withKey("yarn-colocation-it").withValue(RUN).withEffect("NoSchedule").endTaint().endSpec()
        .withNewStatus().withCapacity(capacity).withAllocatable(capacity).endStatus()
        .build();
    client.resource(node).create();
  }

  private static Pod nodeManagerPod(String name, String node, NodeManagerId id) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(NAMESPACE)
        .addToLabels(KubeView.COMPONENT_LABEL, KubeView.NODE_MANAGER)
        .addToAnnotations(NodeManagerId.NODE_ID_ANNOTATION, id.nodeId())
        .endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewToleration().withKey("yarn-colocation-it").withOperator("Exists").endToleration()
        .addNewContainer().withName("node-manager").withImage("apache/hadoop:3").endContainer()
        .endSpec()
        .build();
  }

  /** A batch pod: bound to {@code node} when given, else left to kube-scheduler. */
  private static Pod batchPod(String name, String node, BatchResources batch) {
    Map<String, Quantity> requests = Map.of(
        WellKnown.BATCH_CPU, new Quantity(Long.toString(batch.milliCpu())),
        WellKnown.BATCH_MEMORY, new Quantity(Long.toString(batch.memoryBytes())));
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(NAMESPACE).withLabels(Map.of(WellKnown.QOS_CLASS, "BE")).endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewToleration().withKey("yarn-colocation-it").withOperator("Exists").endToleration()
        .addNewContainer().withName("batch").withImage("busybox")
        .withNewResources().withRequests(requests).withLimits(requests).endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  private static void createPod(Pod pod) {
    client.resource(pod).create();
  }
}
