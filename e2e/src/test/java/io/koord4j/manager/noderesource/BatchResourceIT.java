package io.koord4j.manager.noderesource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.koord4j.api.WellKnown;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.scheduler.KoordScheduler;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.PrivateKwokNode;
import io.koord4j.testing.TestPods;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The batch-resource controller on the real control plane: a KWOK node whose NodeMetric the test
 * writes, the slo-controller-config ConfigMap, and kube-scheduler and koord-scheduler placing batch
 * pods by the node's {@code kubernetes.io/batch-cpu} and {@code batch-memory}.
 */
class BatchResourceIT {
  private static final long GIB = 1L << 30;

  private KubernetesClient client;
  private String id;
  private PrivateKwokNode node;
  private SharedInformers informers;
  private BatchResourceReconciler batch;

  @BeforeEach
  void setUp() {
    client = LocalCluster.client();
    LocalCluster.ensureCrds(client, "nodemetrics.slo.koordinator.sh");
    id = "batch-it-" + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    client.resource(new NamespaceBuilder().withNewMetadata().withName(id).endMetadata().build()).create();
    node = PrivateKwokNode.create(client, id, "32", "64Gi");
    LocalCluster.labelNode(client, id, Map.of("koord4j.io/batch-it", id));
  }

  @AfterEach
  void tearDown() {
    if (batch != null) {
      batch.close();
      informers.close();
    }
    client.resources(NodeMetric.class).withName(id).delete();
    client.namespaces().withName(id).delete();
    node.close();
    client.close();
  }

  @Test
  void nodeOffersBatchResourcesFromItsNodeMetricAndBothSchedulersPlaceBatchPods() {
    // Colocation on for this node only: the shared cluster's other nodes stay as they are.
    client.resource(new ConfigMapBuilder().withNewMetadata().withName(ColocationConfig.CONFIG_MAP).withNamespace(id)
        .endMetadata().addToData(ColocationConfig.KEY, """
            {"enable": false,
             "nodeConfigs": [{"name": "it", "nodeSelector": {"matchLabels": {"koord4j.io/batch-it": "%s"}},
                              "enable": true, "cpuReclaimThresholdPercent": 60, "memoryReclaimThresholdPercent": 65}]}
            """.formatted(id)).build()).create();
    Pod service = client.resource(pod("service", Map.of("cpu", "4", "memory", "8Gi"), id)).create();
    writeNodeMetric(Instant.now(), service);
    informers = new SharedInformers(client);
    batch = new BatchResourceReconciler(client, informers, id, Clock.systemUTC());
    batch.start();

    // cpu: 32000 - 40% margin 12800 - system 2000 - service used 6000
    // memory: 64Gi - 35% margin - system 4Gi - service used 12Gi
    long memory = 64 * GIB - 64 * GIB * 35 / 100 - 4 * GIB - 12 * GIB;
    awaitBatch(11_200, memory);
    assertThat(node().getMetadata().getAnnotations().get(WellKnown.ORIGIN_EXTENDED_ALLOCATABLE))
        .contains("\"kubernetes.io/batch-cpu\":\"11200\"");

    // YARN holds 2 cores and 1 GiB of them.
    LocalCluster.annotateNode(client, id, Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, """
        {"allocations":[{"name":"hadoop-yarn","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"2000","kubernetes.io/batch-memory":"%d"}}]}
        """.formatted(GIB).strip()));
    awaitBatch(9_200, memory - GIB);
    // A change of what YARN holds reaches the node at once, even one below resourceDiffThreshold (10 %).
    LocalCluster.annotateNode(client, id, Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, """
        {"allocations":[{"name":"hadoop-yarn","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"2500","kubernetes.io/batch-memory":"%d"}}]}
        """.formatted(GIB).strip()));
    awaitBatch(8_700, memory - GIB);

    Pod fits = client.resource(pod("batch-fits", Map.of(WellKnown.BATCH_CPU, "8000", WellKnown.BATCH_MEMORY, "8Gi"), null)).create();
    Pod tooBig = client.resource(pod("batch-too-big", Map.of(WellKnown.BATCH_CPU, "4000"), null)).create();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
        assertThat(client.pods().inNamespace(id).withName(fits.getMetadata().getName()).get().getSpec().getNodeName()).isEqualTo(id));
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(failedScheduling(tooBig))
        .anyMatch(message -> message.contains("Insufficient " + WellKnown.BATCH_CPU)));
    assertThat(client.pods().inNamespace(id).withName(tooBig.getMetadata().getName()).get().getSpec().getNodeName()).isNull();

    // koord-scheduler (under a name of this test's own) counts batch resources the same way: 700m are left.
    String schedulerName = "koord-scheduler-" + id;
    try (KoordScheduler scheduler = new KoordScheduler(client, new SimpleMeterRegistry(),
        KoordScheduler.Options.defaults().withSchedulerName(schedulerName).withBackoff(Duration.ofMillis(200), Duration.ofSeconds(2)))) {
      scheduler.start();
      Pod byKoord = client.resource(new PodBuilder(pod("batch-koord", Map.of(WellKnown.BATCH_CPU, "500"), null))
          .editSpec().withSchedulerName(schedulerName).endSpec().build()).create();
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
          assertThat(client.pods().inNamespace(id).withName(byKoord.getMetadata().getName()).get().getSpec().getNodeName()).isEqualTo(id));
    }

    // YARN holds more than the node has: nothing is left for pods, yet a lower origin (50 % margin:
    // 32000 - 16000 - 2000 - 6000) still reaches the node's record, which YARN sizes itself by.
    LocalCluster.annotateNode(client, id, Map.of(WellKnown.THIRD_PARTY_ALLOCATIONS, """
        {"allocations":[{"name":"hadoop-yarn","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"20000","kubernetes.io/batch-memory":"64Gi"}}]}
        """.strip()));
    awaitBatch(0, 0);
    client.configMaps().inNamespace(id).withName(ColocationConfig.CONFIG_MAP).edit(config -> {
      config.getData().put(ColocationConfig.KEY, config.getData().get(ColocationConfig.KEY).replace("\"cpuReclaimThresholdPercent\": 60", "\"cpuReclaimThresholdPercent\": 50"));
      return config;
    });
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
        assertThat(node().getMetadata().getAnnotations().get(WellKnown.ORIGIN_EXTENDED_ALLOCATABLE))
            .contains("\"kubernetes.io/batch-cpu\":\"8000\""));
    awaitBatch(0, 0);

    // A NodeMetric older than degradeTimeMinutes (15) takes the batch resources away.
    writeNodeMetric(Instant.now().minus(Duration.ofMinutes(16)), service);
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
        assertThat(node().getStatus().getAllocatable()).doesNotContainKeys(WellKnown.BATCH_CPU, WellKnown.BATCH_MEMORY));
    assertThat(node().getStatus().getCapacity()).doesNotContainKeys(WellKnown.BATCH_CPU, WellKnown.BATCH_MEMORY);
  }

  private void awaitBatch(long cpuMilli, long memoryBytes) {
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      Node current = node();
      for (Map<String, Quantity> resources : List.of(current.getStatus().getAllocatable(), current.getStatus().getCapacity())) {
        assertThat(resources.get(WellKnown.BATCH_CPU)).isEqualTo(new Quantity(Long.toString(cpuMilli)));
        assertThat(resources.get(WellKnown.BATCH_MEMORY)).isEqualTo(new Quantity(Long.toString(memoryBytes)));
      }
    });
  }

  private Node node() {
    return client.nodes().withName(id).get();
  }

  private List<String> failedScheduling(Pod pod) {
    return client.v1().events().inNamespace(id).list().getItems().stream()
        .filter(e -> pod.getMetadata().getName().equals(e.getInvolvedObject().getName()))
        .filter(e -> "FailedScheduling".equals(e.getReason()))
        .map(Event::getMessage)
        .toList();
  }

  /** Usage as koordlet would report it: node 10 cores / 20 GiB, system 2 / 4 GiB, the service 6 / 12 GiB. */
  private void writeNodeMetric(Instant updateTime, Pod service) {
    if (client.resources(NodeMetric.class).withName(id).get() == null) {
      NodeMetric metric = new NodeMetric();
      metric.getMetadata().setName(id);
      client.resource(metric).create();
    }
    Map<String, Object> status = Map.of(
        "updateTime", updateTime.truncatedTo(ChronoUnit.SECONDS).toString(),
        "nodeMetric", Map.of(
            "nodeUsage", Map.of("resources", Map.of("cpu", "10", "memory", "20Gi")),
            "systemUsage", Map.of("resources", Map.of("cpu", "2", "memory", "4Gi"))),
        "podsMetric", List.of(Map.of(
            "namespace", id, "name", service.getMetadata().getName(), "priority", "koord-prod", "qos", "LS",
            "podUsage", Map.of("resources", Map.of("cpu", "6", "memory", "12Gi")))));
    client.resources(NodeMetric.class).withName(id).subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("status", status)));
  }

  /** A pod for the private node: bound to it directly when {@code nodeName} is given, else scheduled. */
  private Pod pod(String name, Map<String, String> requests, String nodeName) {
    Map<String, Quantity> quantities = TestPods.quantities(requests);
    boolean batch = requests.containsKey(WellKnown.BATCH_CPU);
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(id)
        .withLabels(batch ? Map.of(WellKnown.QOS_CLASS, "BE") : Map.of()).endMetadata()
        .withNewSpec()
        .withNodeName(nodeName)
        .withNodeSelector(Map.of("kubernetes.io/hostname", id))
        .withTolerations(node.toleration())
        .addNewContainer().withName("main").withImage("busybox")
        .withNewResources().withRequests(quantities).withLimits(quantities).endResources()
        .endContainer()
        .endSpec()
        .build();
  }
}
