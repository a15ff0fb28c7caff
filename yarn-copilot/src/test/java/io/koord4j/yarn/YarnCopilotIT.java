package io.koord4j.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.probes.LeaderElection;
import io.koord4j.yarn.sync.BatchResources;
import io.koord4j.yarn.sync.NodeManagerId;
import io.koord4j.yarn.sync.NodeManagerReport;
import io.koord4j.yarn.sync.YarnResources;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
  private static final long MIB = YarnOnKube.MIB;
  private static final PrometheusMeterRegistry METRICS = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  private static YarnOnKube kube;
  private static KubernetesClient client;
  private static MiniYarn yarn;
  private static String nodeA;
  private static String nodeB;
  private static String nodePlain;
  private static NodeManagerId nmA;
  private static NodeManagerId nmB;
  private static Map<String, String> plainAnnotations;

  @BeforeAll
  static void start() throws Exception {
    kube = YarnOnKube.start("yarn-copilot-it");
    client = kube.client();
    yarn = kube.yarn();
    nmA = kube.nodeManagerA();
    nmB = kube.nodeManagerB();
    nodeA = kube.node("a");
    nodeB = kube.node("b");
    nodePlain = kube.node("plain");
    for (String node : List.of(nodeA, nodeB, nodePlain)) {
      kube.createNode(node, "16", "32Gi", Map.of());
      setBatch(node, new BatchResources(4000, 4096 * MIB));
    }
    kube.pairNodeManagers(nodeA, nodeB);
    plainAnnotations = client.nodes().withName(nodePlain).get().getMetadata().getAnnotations();
    kube.startCopilot(METRICS);
  }

  @AfterAll
  static void stop() {
    if (kube != null) {
      kube.close();
    }
  }

  @Test
  @Order(1)
  void eachNodesBatchResourcesBecomeItsNodeManagersTotalAndFollowChanges() {
    awaitTotal(nmA, new YarnResources(4, 4096));
    awaitTotal(nmB, new YarnResources(4, 4096));

    setBatch(nodeA, new BatchResources(2000, 2048 * MIB));
    // Kubernetes batch pods on a node take their requests off YARN's share.
    kube.createPod(kube.batchPod("batch-b", nodeB, new BatchResources(1000, 1024 * MIB)));

    awaitTotal(nmA, new YarnResources(2, 2048));
    awaitTotal(nmB, new YarnResources(3, 3072));
  }

  @Test
  @Order(2)
  void aNodeWithoutNodeManagerIsLeftAlone() {
    assertThat(client.nodes().withName(nodePlain).get().getMetadata().getAnnotations())
        .isEqualTo(plainAnnotations)
        .doesNotContainKey(WellKnown.THIRD_PARTY_ALLOCATIONS);
  }

  @Test
  @Order(3)
  void afterAResourceManagerRestartTheSameCopilotResyncsAndKeepsPushingAndRecording() throws Exception {
    yarn.restartResourceManager();
    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
        .until(() -> yarn.reports().values().stream().filter(NodeManagerReport::running).count() == 2);

    // The new ResourceManager knows the NodeManagers by their own configured totals until the copilot pushes again.
    awaitTotal(nmA, new YarnResources(2, 2048), Duration.ofSeconds(30));
    awaitTotal(nmB, new YarnResources(3, 3072), Duration.ofSeconds(30));
    setBatch(nodeA, new BatchResources(3000, 3072 * MIB));
    awaitTotal(nmA, new YarnResources(3, 3072));
    awaitTotal(nmB, new YarnResources(3, 3072));

    CompletableFuture<Boolean> app = yarn.runSleepers(2, 512, 4);
    await().atMost(Duration.ofSeconds(60)).until(() -> !yarn.reports().get(nmA).used().equals(YarnResources.ZERO)
        || !yarn.reports().get(nmB).used().equals(YarnResources.ZERO) || app.isDone());
    YarnResources usedA = yarn.reports().get(nmA).used();
    awaitRecorded(nodeA, usedA, nmA);
    assertThat(app.get(120, TimeUnit.SECONDS)).as("DistributedShell succeeded after the restart").isTrue();
    aNodeWithoutNodeManagerIsLeftAlone();
  }

  @Test
  @Order(4)
  void metricsShowTheSyncLagAndTheLastPushAndPullOfEachNode() {
    String scrape = METRICS.scrape();

    assertThat(scrape)
        .contains("koord4j_yarn_copilot_sync_lag_seconds{cluster=\"default\"}")
        .contains("koord4j_yarn_copilot_last_push_seconds{node=\"" + nodeA + "\"}")
        .contains("koord4j_yarn_copilot_last_pull_seconds{node=\"" + nodeB + "\"}")
        .contains("koord4j_yarn_copilot_round_seconds_count{cluster=\"default\"}")
        .doesNotContain("node=\"" + nodePlain + "\"");
  }

  /** The chart's account may take, renew and release the copilot's Lease. */
  @Test
  @Order(5)
  void theChartsAccountLeadsThroughItsLease() throws Exception {
    CountDownLatch leading = new CountDownLatch(1);
    LeaderElection election =
        new LeaderElection(kube.copilotClient(), kube.namespace(), kube.account().leaseName(), Duration.ofSeconds(3), leading::countDown);
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
    // Released as client-go does: the Lease expires at once, so that a successor need not wait.
    await("the Lease is released").atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(lease().getSpec().getLeaseDurationSeconds()).isEqualTo(1));
  }

  /** A leader whose start takes longer than its Lease lasts still renews it meanwhile. */
  @Test
  @Order(6)
  void aLeaderThatTakesLongToStartKeepsItsLeaseRenewed() throws Exception {
    CountDownLatch starting = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    Duration leaseDuration = Duration.ofSeconds(3);
    LeaderElection election = new LeaderElection(kube.copilotClient(), kube.namespace(), kube.account().leaseName(),
        leaseDuration, () -> {
          starting.countDown();
          // As a start that lists a large cluster: three times as long as the Lease lasts.
          TimeUnit.MILLISECONDS.sleep(leaseDuration.multipliedBy(3).toMillis());
          started.countDown();
        });
    Thread campaign = new Thread(election::run, "yarn-copilot-it-slow-start");
    campaign.start();
    try {
      assertThat(starting.await(60, TimeUnit.SECONDS)).as("leadership taken").isTrue();
      String renewed = leaseRenewTime();
      await("the Lease is renewed while the leader starts").atMost(leaseDuration.multipliedBy(2))
          .until(() -> !leaseRenewTime().equals(renewed));
      assertThat(started.getCount()).as("the start is still under way").isEqualTo(1);
    } finally {
      election.stop();
      campaign.interrupt();
      campaign.join(TimeUnit.SECONDS.toMillis(30));
    }
  }

  private static Lease lease() {
    return client.resources(Lease.class).inNamespace(kube.namespace()).withName(kube.account().leaseName()).get();
  }

  private static String leaseRenewTime() {
    return String.valueOf(lease().getSpec().getRenewTime());
  }

  private static void awaitTotal(NodeManagerId nodeManager, YarnResources total) {
    awaitTotal(nodeManager, total, Duration.ofSeconds(10));
  }

  private static void awaitTotal(NodeManagerId nodeManager, YarnResources total, Duration atMost) {
    kube.awaitTotal(nodeManager, total, atMost);
  }

  private static void awaitRecorded(String node, YarnResources used, NodeManagerId nodeManager) {
    kube.awaitRecorded(node, used, nodeManager);
  }

  /** What the batch-resources controller would write: the node's batch resources in its status. */
  private static void setBatch(String node, BatchResources batch) {
    Map<String, String> resources = Map.of(
        WellKnown.BATCH_CPU, Long.toString(batch.milliCpu()),
        WellKnown.BATCH_MEMORY, Long.toString(batch.memoryBytes()));
    client.nodes().withName(node).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE),
        Serialization.asJson(Map.of("status", Map.of("allocatable", resources, "capacity", resources))));
  }

}
