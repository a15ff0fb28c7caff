package io.koord4j.scheduler.extender;

import static io.koord4j.scheduler.GpuFixtures.gpuPod;
import static io.koord4j.scheduler.GpuFixtures.h100Device;
import static io.koord4j.scheduler.GpuFixtures.h100Node;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.scheduler.Fixtures;
import io.koord4j.scheduler.GpuFixtures;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.DefaultBinder;
import io.koord4j.scheduler.plugins.TaintToleration;
import io.koord4j.scheduler.plugins.deviceshare.DeviceShare;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The extender over HTTP, with the JSON kube-scheduler sends and reads. */
class ExtenderTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final SchedulerCache cache = new SchedulerCache(pod -> Optional.empty());
  private final Map<String, String> annotations = new ConcurrentHashMap<>();
  private final Map<String, String> bindings = new ConcurrentHashMap<>();
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private final ExtenderServer server;

  ExtenderTest() throws Exception {
    DeviceShare deviceShare =
        new DeviceShare(
            DeviceShare.GpuReservations.of(cache::reserveGpus, cache::releaseGpus),
            (pod, key, value) -> annotations.put(pod.getMetadata().getName(), value));
    DefaultBinder binder = new DefaultBinder((pod, node) -> bindings.put(pod.getMetadata().getName(), node));
    Framework framework =
        new Framework(
            List.of(new TaintToleration(), deviceShare, binder), Map.of(), pool, 2, new WaitingPods(null));
    server = new ExtenderServer(ExtenderSettings.onPort(0), new Extender(framework, cache));
    for (String node : List.of("busy", "idle")) {
      cache.upsertNode(h100Node(node));
      cache.upsertDevice(h100Device(node));
    }
    cache.upsertNode(h100Node("plain"));
    Node tainted = h100Node("tainted");
    tainted.getSpec().setTaints(List.of(new Taint("NoSchedule", "dedicated", null, "team-x")));
    cache.upsertNode(tainted);
    cache.upsertDevice(h100Device("tainted"));
  }

  @AfterEach
  void stop() {
    server.close();
    pool.shutdownNow();
  }

  @Test
  void filterKeepsTheNodesWithRoomAndSaysWhyTheOthersFail() throws Exception {
    Pod shared = gpuPod("shared", Map.of(WellKnown.KOORD_GPU, "50"), Map.of());

    JsonNode result =
        post("/filter", Map.of("Pod", podJson(shared), "NodeNames", List.of("busy", "plain", "ghost")));

    assertThat(result.get("NodeNames")).containsExactly(JSON.valueToTree("busy"));
    assertThat(result.get("FailedNodes").get("ghost").asText()).contains("not in koord-scheduler's cache");
    assertThat(result.get("FailedAndUnresolvableNodes").get("plain").asText())
        .isEqualTo("DeviceShare: node(s) had no Device object for GPU placement");
    assertThat(result.has("Error")).isFalse();
  }

  @Test
  void filterAnswersWithNodesWhenItIsSentNodes() throws Exception {
    Pod eight = gpuPod("eight", Map.of(WellKnown.NVIDIA_GPU, "8"), Map.of());
    cache.upsertPod(heldOn("held", "busy"));
    Map<String, Object> nodes =
        Map.of("items", List.of(JSON.readTree(Serialization.asJson(h100Node("busy"))), JSON.readTree(Serialization.asJson(h100Node("idle")))));

    JsonNode result = post("/filter", Map.of("Pod", podJson(eight), "Nodes", nodes));

    assertThat(result.get("Nodes").get("items")).hasSize(1);
    assertThat(result.get("Nodes").get("items").get(0).get("metadata").get("name").asText()).isEqualTo("idle");
    assertThat(result.get("FailedNodes").get("busy").asText()).isEqualTo("DeviceShare: 7 free GPUs, 8 requested");
  }

  @Test
  void prioritizeScoresOnKubeSchedulersScaleAndPacksOntoBusyNodes() throws Exception {
    cache.upsertPod(heldOn("held", "busy"));
    Pod one = gpuPod("one", Map.of(WellKnown.NVIDIA_GPU, "1"), Map.of());

    JsonNode result = post("/prioritize", Map.of("Pod", podJson(one), "NodeNames", List.of("busy", "idle")));

    assertThat(result.get(0).get("Host").asText()).isEqualTo("busy");
    long busy = result.get(0).get("Score").asLong();
    long idle = result.get(1).get("Score").asLong();
    assertThat(busy).isGreaterThan(idle).isLessThanOrEqualTo(ExtenderTypes.MAX_EXTENDER_PRIORITY);
  }

  @Test
  void bindWritesTheGpusThenBindsAndRefusesAPodItDoesNotKnow() throws Exception {
    Pod pair = gpuPod("pair", Map.of(WellKnown.NVIDIA_GPU, "2"), Map.of());
    cache.upsertPod(pair);

    JsonNode bound = post("/bind", bindingArgs(pair, "idle"));
    JsonNode unknown = post("/bind", bindingArgs(gpuPod("stranger", Map.of(), Map.of()), "idle"));

    assertThat(bound.has("Error")).isFalse();
    assertThat(bindings).containsEntry("pair", "idle");
    assertThat(GpuFixtures.minors(annotations.get("pair"))).hasSize(2);
    assertThat(cache.gpuTotals().allocated()).isEqualTo(2);
    assertThat(unknown.get("Error").asText()).contains("default/stranger", "not in koord-scheduler's cache");
  }

  @Test
  void bindRefusesANodeThatThePodsFiltersReject() throws Exception {
    Pod pair = gpuPod("pair", Map.of(WellKnown.NVIDIA_GPU, "2"), Map.of());
    cache.upsertPod(pair);

    JsonNode tainted = post("/bind", bindingArgs(pair, "tainted"));
    JsonNode ghost = post("/bind", bindingArgs(pair, "ghost"));

    assertThat(tainted.get("Error").asText()).startsWith("TaintToleration:");
    assertThat(ghost.get("Error").asText()).contains("ghost", "not in koord-scheduler's cache");
    assertThat(bindings).isEmpty();
    assertThat(cache.isAssumed(pair.getMetadata().getUid())).isFalse();
    assertThat(cache.gpuTotals().allocated()).isZero();
  }

  private static Map<String, String> bindingArgs(Pod pod, String node) {
    return Map.of(
        "PodName", pod.getMetadata().getName(),
        "PodNamespace", pod.getMetadata().getNamespace(),
        "PodUID", pod.getMetadata().getUid(),
        "Node", node);
  }

  private static Pod heldOn(String name, String node) {
    String allocated =
        "{\"gpu\":[{\"minor\":0,\"resources\":{\"koordinator.sh/gpu-core\":\"100\","
            + "\"koordinator.sh/gpu-memory-ratio\":\"100\",\"koordinator.sh/gpu-memory\":\"80Gi\"}}]}";
    return Fixtures.boundTo(
        gpuPod(name, Map.of(WellKnown.NVIDIA_GPU, "1"), Map.of(WellKnown.DEVICE_ALLOCATED, allocated)), node);
  }

  private static JsonNode podJson(Pod pod) throws Exception {
    return JSON.readTree(Serialization.asJson(pod));
  }

  private JsonNode post(String path, Object body) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }
}
