package io.koord4j.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.probes.ProbeServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.koord4j.scheduler.queue.SchedulingQueue;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import io.koord4j.scheduler.cache.SchedulerCache;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MetricsEndpointTest {

  @Test
  void servesHealthAndSchedulerMetrics() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    SchedulingQueue queue =
        new SchedulingQueue(Clock.systemUTC(), Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMinutes(5), Map.of());
    SchedulerCache cache = new SchedulerCache(pod -> Optional.empty());
    cache.upsertNode(GpuFixtures.h100Node("gpu-node"));
    cache.upsertDevice(GpuFixtures.h100Device("gpu-node"));
    SchedulerMetrics metrics = new SchedulerMetrics(registry, queue, cache);
    metrics.attempt(SchedulerMetrics.SCHEDULED);
    metrics.cycle(Duration.ofMillis(3));

    try (ProbeServer server = ProbeServer.start(ProbeServer.Listen.onPort(0), registry, () -> true)) {
      assertThat(get(server, "/healthz")).isEqualTo("ok");
      assertThat(get(server, "/metrics"))
          .contains("scheduler_schedule_attempts_total{result=\"scheduled\"} 1.0")
          .contains("scheduler_pending_pods{queue=\"unschedulable\"} 0.0")
          .contains("scheduler_scheduling_attempt_duration_seconds_count 1")
          .contains("scheduler_gpu_healthy 8.0")
          .contains("scheduler_gpu_allocated 0.0");
    }
  }

  private static String get(ProbeServer server, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
