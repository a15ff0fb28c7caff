package io.koord4j.koordlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.slo.MetricCollectPolicy;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.NodeMetricSpec;
import io.koord4j.api.slo.NodeMetricStatus;
import io.koord4j.api.slo.NodeSLO;
import io.koord4j.api.slo.NodeSLOSpec;
import io.koord4j.api.slo.PodMetricInfo;
import io.koord4j.api.slo.ResourceThresholdStrategy;
import io.koord4j.koordlet.cgroup.CgroupFiles;
import io.koord4j.koordlet.cgroup.CgroupLayout;
import io.koord4j.koordlet.cgroup.KubeQos;
import io.koord4j.koordlet.cgroup.RealCgroups;
import io.koord4j.koordlet.metrics.ProcFiles;
import io.koord4j.koordlet.qos.MemoryEvictor;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.PrivateKwokNode;
import io.koord4j.testing.TestPods;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * koordlet in-process against the real control plane for a KWOK node whose pods have real cgroups
 * on this machine, made by the test, with real processes: the NodeMetric it reports, the batch
 * pod's cgroup values, the BE quota, and memory eviction through the Eviction API.
 */
class KoordletIT {
  private static final Duration REPORT_INTERVAL = Duration.ofSeconds(2);

  @Test
  void reportsRealPodUsageSetsBatchCgroupsAndEvictsTheBatchPodUnderMemoryPressure() throws Exception {
    String id = "koordlet-it-" + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 20), 36);
    long usedMemory = new ProcFiles(Path.of("/proc")).memInfo().usedBytes();
    try (KubernetesClient client = LocalCluster.client();
        RealCgroups cgroups = RealCgroups.v1()) {
      LocalCluster.ensureCrds(client, "nodemetrics.slo.koordinator.sh", "nodeslos.slo.koordinator.sh");
      client.resource(new NamespaceBuilder().withNewMetadata().withName(id).endMetadata().build()).create();
      // A node whose memory capacity makes this machine's memory use 80 % of it.
      try (PrivateKwokNode node = PrivateKwokNode.create(client, id, "4", Long.toString(usedMemory * 100 / 80))) {
        try {
          run(client, cgroups, node);
        } finally {
          client.resources(NodeMetric.class).withName(id).delete();
          client.resources(NodeSLO.class).withName(id).delete();
          client.namespaces().withName(id).delete();
        }
      }
    }
  }

  private void run(KubernetesClient client, RealCgroups cgroups, PrivateKwokNode node) throws Exception {
    String id = node.name();
    client.resource(nodeMetric(id)).create();
    client.resource(nodeSlo(id, 100)).create();
    Pod service = client.resource(pod(node, "service", Map.of("cpu", "1", "memory", "1Gi"), false)).create();
    Pod batch = client.resource(pod(node, "batch",
        Map.of(WellKnown.BATCH_CPU, "1000", WellKnown.BATCH_MEMORY, "512Mi"), true)).create();
    CgroupLayout layout = cgroups.layout();
    String serviceDir = layout.podDir(KubeQos.GUARANTEED, service.getMetadata().getUid());
    String batchDir = layout.podDir(KubeQos.BEST_EFFORT, batch.getMetadata().getUid());
    cgroups.mkdirs(serviceDir);
    cgroups.mkdirs(batchDir);
    cgroups.burnCpuIn(serviceDir, 24);
    cgroups.burnCpuIn(batchDir, 48);

    KoordletSettings settings = KoordletSettings.from(Map.of(), new String[] {
        "--node-name=" + id, "--kubepods-cgroup=" + layout.kubepods(), "--http-port=0"});
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Instant started = Instant.now();
    try (Koordlet koordlet = new Koordlet(client, settings, registry, Clock.systemUTC())) {
      var http = KoordletMain.serve(new InetSocketAddress("127.0.0.1", 0), registry, koordlet);
      koordlet.start();
      try {
        NodeMetricStatus status = awaitBothPodsReported(client, id);
        Duration firstReport = Duration.between(started, Instant.now());
        System.out.printf("NodeMetric showed both pods %d ms after koordlet started (report interval %d s)%n",
            firstReport.toMillis(), REPORT_INTERVAL.toSeconds());
        PodMetricInfo batchMetric = pod(status, "batch");
        assertThat(batchMetric.getPriority()).isEqualTo("koord-batch");
        assertThat(batchMetric.getQos()).isEqualTo("BE");
        assertThat(pod(status, "service").getPriority()).isEqualTo("koord-prod");
        assertThat(pod(status, "service").getQos()).isEqualTo("LSR");
        assertThat(status.getNodeMetric().getNodeUsage().getResources()).containsKeys("cpu", "memory");

        // The batch pod's cgroup carries its batch request and limits.
        CgroupFiles files = new CgroupFiles(layout);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
          assertThat(files.read("cpu", batchDir, "cpu.shares").trim()).isEqualTo("1024");
          assertThat(files.cpuQuotaUs(batchDir)).isEqualTo(100_000);
          assertThat(files.read("memory", batchDir, "memory.limit_in_bytes").trim()).isEqualTo(Long.toString(512L << 20));
        });
        // CPU suppression holds the BestEffort cgroup to a quota.
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
            assertThat(files.cpuQuotaUs(layout.qosDir(KubeQos.BEST_EFFORT))).isPositive());

        HttpClient httpClient = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + http.getAddress().getPort();
        assertThat(httpClient.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
            HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        assertThat(httpClient.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString()).body())
            .contains("koordlet_node_cpu_usage_cores").contains("koordlet_be_cpu_quota_us");

        // Memory use (80 % of the node) now crosses the threshold: the batch pod goes, the service stays.
        client.resources(NodeSLO.class).withName(id).patch(PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(Map.of("spec", Map.of("resourceUsedThresholdWithBE", Map.of("memoryEvictThresholdPercent", 70)))));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
          Pod current = client.pods().inNamespace(id).withName("batch").get();
          assertThat(current == null || current.getMetadata().getDeletionTimestamp() != null).isTrue();
        });
        // koordlet records the event once the eviction has been accepted, so it can trail the deletion.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
            assertThat(client.v1().events().inNamespace(id).list().getItems())
                .anySatisfy(event -> {
                  assertThat(event.getInvolvedObject().getName()).isEqualTo("batch");
                  assertThat(event.getReason()).isEqualTo(MemoryEvictor.REASON);
                  assertThat(event.getMessage()).contains("BE eviction threshold 70%").contains("must be released");
                }));
        assertThat(client.pods().inNamespace(id).withName("service").get().getMetadata().getDeletionTimestamp()).isNull();
      } finally {
        http.stop(0);
      }
    }
  }

  private static NodeMetricStatus awaitBothPodsReported(KubernetesClient client, String id) {
    NodeMetricStatus[] seen = new NodeMetricStatus[1];
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
      NodeMetric metric = client.resources(NodeMetric.class).withName(id).get();
      assertThat(metric.getStatus()).isNotNull();
      assertThat(metric.getStatus().getPodsMetric()).extracting(PodMetricInfo::getName).contains("batch", "service");
      assertThat(metric.getStatus().getPodsMetric())
          .allSatisfy(pod -> assertThat(Quantity.getAmountInBytes(pod.getPodUsage().getResources().get("cpu")).doubleValue()).isPositive());
      seen[0] = metric.getStatus();
    });
    return seen[0];
  }

  private static PodMetricInfo pod(NodeMetricStatus status, String name) {
    return status.getPodsMetric().stream().filter(p -> p.getName().equals(name)).findFirst().orElseThrow();
  }

  private static NodeMetric nodeMetric(String name) {
    MetricCollectPolicy policy = new MetricCollectPolicy();
    policy.setReportIntervalSeconds(REPORT_INTERVAL.toSeconds());
    policy.setAggregateDurationSeconds(10L);
    NodeMetricSpec spec = new NodeMetricSpec();
    spec.setMetricCollectPolicy(policy);
    NodeMetric metric = new NodeMetric();
    metric.getMetadata().setName(name);
    metric.setSpec(spec);
    return metric;
  }

  private static NodeSLO nodeSlo(String name, long memoryEvictThresholdPercent) {
    ResourceThresholdStrategy strategy = new ResourceThresholdStrategy();
    strategy.setEnable(true);
    strategy.setCpuSuppressThresholdPercent(65L);
    strategy.setMemoryEvictThresholdPercent(memoryEvictThresholdPercent);
    NodeSLOSpec spec = new NodeSLOSpec();
    spec.setResourceUsedThresholdWithBE(strategy);
    NodeSLO slo = new NodeSLO();
    slo.getMetadata().setName(name);
    slo.setSpec(spec);
    return slo;
  }

  private static Pod pod(PrivateKwokNode node, String name, Map<String, String> resources, boolean batch) {
    Map<String, Quantity> quantities = TestPods.quantities(resources);
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(node.name())
        .withLabels(batch ? Map.of(WellKnown.QOS_CLASS, "BE") : Map.of()).endMetadata()
        .withNewSpec().withNodeName(node.name()).withTolerations(node.toleration())
        .addNewContainer().withName("main").withImage("busybox")
        .withNewResources().withRequests(quantities).withLimits(quantities).endResources().endContainer()
        .endSpec().build();
  }
}
