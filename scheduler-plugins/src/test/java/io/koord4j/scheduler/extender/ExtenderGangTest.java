package io.koord4j.scheduler.extender;

import static io.koord4j.scheduler.Fixtures.pod;
import static io.koord4j.scheduler.Fixtures.withAnnotations;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.scheduler.Fixtures;
import io.koord4j.scheduler.TestGangs;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.Plugin;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.DefaultBinder;
import io.koord4j.scheduler.plugins.coscheduling.GangResolver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Gang members waiting at Permit in bind do not hold the extender's threads. */
class ExtenderGangTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int THREADS = 2;

  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private final WaitingPods waiting = new WaitingPods(Executors.newSingleThreadScheduledExecutor());
  private final SchedulerCache cache = new SchedulerCache(GangResolver::gangIdOf);
  private final Map<String, String> bindings = new ConcurrentHashMap<>();
  private final ExtenderServer server;

  ExtenderGangTest() throws Exception {
    Framework framework =
        new Framework(
            List.<Plugin>of(
                TestGangs.coscheduling(cache, waiting),
                new DefaultBinder((pod, node) -> bindings.put(pod.getMetadata().getName(), node))),
            Map.of(),
            pool,
            2,
            waiting);
    cache.upsertNode(Fixtures.node("n", "96", "1Ti"));
    server = new ExtenderServer(ExtenderSettings.onPort(0), new Extender(framework, cache), THREADS);
  }

  @AfterEach
  void stop() {
    server.close();
    pool.shutdownNow();
  }

  @Test
  void aGangLargerThanThePoolBindsWhole() throws Exception {
    List<Pod> gang = IntStream.range(0, 2 * THREADS).mapToObj(this::member).toList();
    gang.forEach(cache::upsertPod);
    HttpClient client = HttpClient.newHttpClient();

    List<CompletableFuture<HttpResponse<String>>> binds =
        gang.stream().map(member -> bind(client, member)).toList();

    CompletableFuture.allOf(binds.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
    for (CompletableFuture<HttpResponse<String>> bind : binds) {
      JsonNode result = JSON.readTree(bind.join().body());
      assertThat(result.has("Error")).as(result.toString()).isFalse();
    }
    assertThat(bindings).hasSize(gang.size()).containsValue("n");
  }

  private Pod member(int i) {
    return withAnnotations(
        pod("w" + i, "1", "1Gi"),
        Map.of(
            WellKnown.GANG_NAME, "train",
            WellKnown.GANG_MIN_AVAILABLE, Integer.toString(2 * THREADS),
            WellKnown.GANG_WAITING_TIME, "60s"));
  }

  private CompletableFuture<HttpResponse<String>> bind(HttpClient client, Pod pod) {
    try {
      String body = JSON.writeValueAsString(Map.of(
          "PodName", pod.getMetadata().getName(),
          "PodNamespace", pod.getMetadata().getNamespace(),
          "PodUID", pod.getMetadata().getUid(),
          "Node", "n"));
      return client.sendAsync(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/bind"))
              .POST(HttpRequest.BodyPublishers.ofString(body))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
