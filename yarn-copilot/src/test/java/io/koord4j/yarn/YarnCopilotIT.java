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
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The copilot between a real YARN (Hadoop's minicluster: a ResourceManager, two NodeManagers and
 * DistributedShell applications) and the local Kubernetes cluster, where two KWOK nodes carry the
 * NodeManagers' pods and a third has none. The copilot runs under the ServiceAccount and RBAC of the
 * Helm chart, so that any access the chart does not grant fails these tests.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class YarnCopilotIT {
  private static final long MIB = 1L << 20;
  private static final String RUN = UUID.randomUUID().toString().substring(0, 6);
  private static final String NAMESPACE = "yarn-copilot-it-" + RUN;
  private static final String NODE_A = "yarn-copilot-it-" + RUN + "-a";
  private static final String NODE_B = "yarn-copilot-it-" + RUN + "-b";
  private static final String NODE_PLAIN = "yarn-copilot-it-" + RUN + "-plain";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static KubernetesClient client;
  private static ChartAccount account;
  private static KubernetesClient copilotClient;
  private static MiniYarn yarn;
  private static Copilot copilot;
  private static final PrometheusMeterRegistry METRICS = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private static NodeManagerId nmA;
  private static NodeManagerId nmB;
  private static Map<String, String> plainAnnotations;

  @BeforeAll
  static void start() throws Exception {
    client = LocalCluster.client();
    client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
        .withNewMetadata().withName(NAMESPACE).endMetadata().build()).create();
    account = ChartAccount.install(client, "yc-it-" + RUN, NAMESPACE);
    copilotClient = account.client();
    yarn = MiniYarn.start("yarn-copilot-it", 2, Path.of("target", "yarn-copilot-it-conf"));
    List<NodeManagerId> nodeManagers = new ArrayList<>(yarn.reports().keySet());
    nmA = nodeManagers.get(0);
    nmB = nodeManagers.get(1);
    for (String node : List.of(NODE_A, NODE_B, NODE_PLAIN)) {
      createNode(node);
      setBatch(node, new BatchResources(4000, 4096 * MIB));
    }
    createPod(nodeManagerPod("nm-a", NODE_A, nmA));
    createPod(nodeManagerPod("nm-b", NODE_B, nmB));
    plainAnnotations = client.nodes().withName(NODE_PLAIN).get().getMetadata().getAnnotations();
    copilot = new Copilot(copilotClient, ClusterConfigs.load(yarn.confDir()), Duration.ofSeconds(1), METRICS);
    copilot.start();
  }

  @AfterAll
  static void stop() {
    if (copilot != null) {
      copilot.close();
    }
    if (copilotClient != null) {
      copilotClient.close();
    }
    if (client != null) {
      if (account != null) {
        account.close();
      }
      client.namespaces().withName(NAMESPACE).delete();
      for (String node : List.of(NODE_A, NODE_B, NODE_PLAIN)) {
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
  void eachNodesBatchResourcesBecomeItsNodeManagersTotalAndFollowChanges() {
    awaitTotal(nmA, new YarnResources(4, 4096));
    awaitTotal(nmB, new YarnResources(4, 4096));

    setBatch(NODE_A, new BatchResources(2000, 2048 * MIB));
    // Kubernetes batch pods on a node take their requests off YARN's share.
    createPod(batchPod("batch-b", NODE_B, new BatchResources(1000, 1024 * MIB)));

    awaitTotal(nmA, new YarnResources(2, 2048));
    awaitTotal(nmB, new YarnResources(3, 3072));
  }

  @Test
  @Order(2)
  void whileAnApplicationRunsEachNodeRecordsWhatYarnUsesThereWithinTwoSecondsAndNeverMoreThanItsShare()
      throws Exception {
    // 1 + 8 containers of 1 vcore and 512 MiB on 2 + 3 vcores: YARN has to queue some of them.
    CompletableFuture<Boolean> app = yarn.runSleepers(8, 512, 6);
    YarnResources maxA = YarnResources.ZERO;
    YarnResources maxB = YarnResources.ZERO;
    int checked = 0;
    while (!app.isDone()) {
      Map<NodeManagerId, NodeManagerReport> reports = yarn.reports();
      YarnResources usedA = reports.get(nmA).used();
      YarnResources usedB = reports.get(nmB).used();
      maxA = max(maxA, usedA);
      maxB = max(maxB, usedB);
      // No double booking: YARN's use plus the Kubernetes batch pod stays within node B's batch resources.
      assertThat(usedB.toBatch().plus(new BatchResources(1000, 1024 * MIB)).milliCpu()).isLessThanOrEqualTo(4000);
      if (!usedA.equals(YarnResources.ZERO) && usedA.equals(yarn.reports().get(nmA).used())) {
        awaitRecorded(NODE_A, usedA, nmA);
        checked++;
      }
      TimeUnit.MILLISECONDS.sleep(500);
    }
    assertThat(app.get()).as("DistributedShell succeeded").isTrue();
    assertThat(checked).as("rounds in which node A's record was checked against YARN").isPositive();
    assertThat(maxA.vcores()).isPositive().isLessThanOrEqualTo(2);
    assertThat(maxA.memoryMib()).isLessThanOrEqualTo(2048);
    assertThat(maxB.vcores()).isPositive().isLessThanOrEqualTo(3);
    assertThat(maxB.memoryMib()).isLessThanOrEqualTo(3072);

    await().atMost(Duration.ofSeconds(30)).until(() -> yarn.reports().get(nmA).used().equals(YarnResources.ZERO)
        && yarn.reports().get(nmB).used().equals(YarnResources.ZERO));
    awaitRecorded(NODE_A, YarnResources.ZERO, nmA);
    awaitRecorded(NODE_B, YarnResources.ZERO, nmB);
  }

  @Test
  @Order(3)
  void aNodeWithoutNodeManagerIsLeftAlone() {
    assertThat(client.nodes().withName(NODE_PLAIN).get().getMetadata().getAnnotations())
        .isEqualTo(plainAnnotations)
        .doesNotContainKey(WellKnown.THIRD_PARTY_ALLOCATIONS);
  }

  @Test
  @Order(4)
  void afterAResourceManagerRestartTheSameCopilotResyncsAndKeepsPushingAndRecording() throws Exception {
    yarn.restartResourceManager();
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> yarn.reports().values().stream().filter(NodeManagerReport::running).count() == 2);

    // The new ResourceManager knows the NodeManagers by their own configured totals until the copilot pushes again.
    awaitTotal(nmA, new YarnResources(2, 2048), Duration.ofSeconds(30));
    awaitTotal(nmB, new YarnResources(3, 3072), Duration.ofSeconds(30));
    setBatch(NODE_A, new BatchResources(3000, 3072 * MIB));
    awaitTotal(nmA, new YarnResources(3, 3072));
    awaitTotal(nmB, new YarnResources(3, 3072));

    CompletableFuture<Boolean> app = yarn.runSleepers(2, 512, 4);
    await().atMost(Duration.ofSeconds(60)).until(() -> !yarn.reports().get(nmA).used().equals(YarnResources.ZERO)
        || !yarn.reports().get(nmB).used().equals(YarnResources.ZERO) || app.isDone());
    YarnResources usedA = yarn.reports().get(nmA).used();
    awaitRecorded(NODE_A, usedA, nmA);
    assertThat(app.get(120, TimeUnit.SECONDS)).as("DistributedShell succeeded after the restart").isTrue();
    aNodeWithoutNodeManagerIsLeftAlone();
  }

  @Test
  @Order(5)
  void metricsShowTheSyncLagAndTheLastPushAndPullOfEachNode() {
    String scrape = METRICS.scrape();

    assertThat(scrape)
        .contains("koord4j_yarn_copilot_sync_lag_seconds{cluster=\"default\"}")
        .contains("koord4j_yarn_copilot_last_push_seconds{node=\"" + NODE_A + "\"}")
        .contains("koord4j_yarn_copilot_last_pull_seconds{node=\"" + NODE_B + "\"}")
        .contains("koord4j_yarn_copilot_round_seconds_count{cluster=\"default\"}")
        .doesNotContain("node=\"" + NODE_PLAIN + "\"");
  }

  /** The chart's account may take, renew and release the copilot's Lease. */
  @Test
  @Order(6)
  void theChartsAccountLeadsThroughItsLease() throws Exception {
    CountDownLatch leading = new CountDownLatch(1);
    LeaderElection election =
        new LeaderElection(copilotClient, NAMESPACE, account.leaseName(), Duration.ofSeconds(3), leading::countDown);
    Thread campaign = new Thread(election::run, "yarn-copilot-it-election");
    campaign.start();
    try {
      assertThat(leading.await(60, TimeUnit.SECONDS)).as("leadership taken").isTrue();
      String renewed = leaseRenewTime();
      await("the leader renews its Lease").atMost(Duration.ofSeconds(30)).until(() -> !leaseRenewTime().equals(renewed));
    } finally {
      election.stop();
      campaign.interrupt();
      campaign.join(TimeUnit.SECONDS.toMillis(30));
    }
    await("the Lease is released").atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(lease().getSpec().getHolderIdentity()).isNullOrEmpty());
  }

  private static Lease lease() {
    return client.resources(Lease.class).inNamespace(NAMESPACE).withName(account.leaseName()).get();
  }

  private static String leaseRenewTime() {
    return String.valueOf(lease().getSpec().getRenewTime());
  }

  private static void awaitTotal(NodeManagerId nodeManager, YarnResources total) {
    awaitTotal(nodeManager, total, Duration.ofSeconds(10));
  }

  private static void awaitTotal(NodeManagerId nodeManager, YarnResources total, Duration atMost) {
    await().atMost(atMost).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
        .untilAsserted(() -> assertThat(yarn.reports().get(nodeManager).total()).isEqualTo(total));
  }

  /**
   * Within 2 s the node's record equals {@code used}, or what YARN uses there by then if its
   * containers changed meanwhile.
   */
  private static void awaitRecorded(String node, YarnResources used, NodeManagerId nodeManager) {
    await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(100))
        .untilAsserted(() -> assertThat(recorded(node)).isIn(used, yarn.reports().get(nodeManager).used()));
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

  /** A KWOK node tainted so that no other test's pods land on it. */
  private static void createNode(String name) {
    Map<String, Quantity> capacity = Map.of("cpu", new Quantity("16"), "memory", new Quantity("32Gi"), "pods", new Quantity("20"));
    Node node = new NodeBuilder()
        .withNewMetadata().withName(name)
        .addToAnnotations("kwok.x-k8s.io/node", "fake")
        .addToLabels(Map.of("kubernetes.io/hostname", name, "type", "kwok"))
        .endMetadata()
        .withNewSpec().addNewTaint().withKey("yarn-copilot-it").withValue(RUN).withEffect("NoSchedule").endTaint().endSpec()
        .withNewStatus().withCapacity(capacity).withAllocatable(capacity).endStatus()
        .build();
    client.resource(node).create();
  }

  /** What the batch-resources controller would write: the node's batch resources in its status. */
  private static void setBatch(String node, BatchResources batch) {
    Map<String, String> resources = Map.of(
        WellKnown.BATCH_CPU, Long.toString(batch.milliCpu()),
        WellKnown.BATCH_MEMORY, Long.toString(batch.memoryBytes()));
    client.nodes().withName(node).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
        Serialization.asJson(Map.of("status", Map.of("allocatable", resources, "capacity", resources))));
  }

  private static Pod nodeManagerPod(String name, String node, NodeManagerId id) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(NAMESPACE)
        .addToLabels(KubeView.COMPONENT_LABEL, KubeView.NODE_MANAGER)
        .addToAnnotations(NodeManagerId.NODE_ID_ANNOTATION, id.nodeId())
        .endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewToleration().withKey("yarn-copilot-it").withOperator("Exists").endToleration()
        .addNewContainer().withName("node-manager").withImage("apache/hadoop:3").endContainer()
        .endSpec()
        .build();
  }

  private static Pod batchPod(String name, String node, BatchResources batch) {
    Map<String, Quantity> requests = Map.of(
        WellKnown.BATCH_CPU, new Quantity(Long.toString(batch.milliCpu())),
        WellKnown.BATCH_MEMORY, new Quantity(Long.toString(batch.memoryBytes())));
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewToleration().withKey("yarn-copilot-it").withOperator("Exists").endToleration()
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
