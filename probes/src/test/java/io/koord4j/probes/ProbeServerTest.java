package io.koord4j.probes;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ProbeServerTest {

  @Test
  void answersHealthAlwaysReadinessOnceStartedAndMetrics() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.counter("koord4j_test_events").increment();
    AtomicBoolean ready = new AtomicBoolean();

    try (ProbeServer server = ProbeServer.start(0, registry, ready::get)) {
      assertThat(get(server, "/healthz").statusCode()).isEqualTo(200);
      HttpResponse<String> starting = get(server, "/readyz");
      assertThat(starting.statusCode()).isEqualTo(503);
      assertThat(starting.body()).isEqualTo("starting");

      ready.set(true);

      assertThat(get(server, "/readyz").statusCode()).isEqualTo(200);
      HttpResponse<String> metrics = get(server, "/metrics");
      assertThat(metrics.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(metrics.body()).contains("koord4j_test_events_total 1.0");
    }
  }

  @Test
  void addedPagesAnswerGetAndRefuseEveryWritingMethod() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (ProbeServer server = ProbeServer.start(0, registry, () -> true)) {
      server.serve("/ui", path -> path.equals("/ui/state.json")
          ? new ProbeServer.Reply(200, "application/json", "{}")
          : ProbeServer.Reply.notFound());

      HttpResponse<String> state = get(server, "/ui/state.json");
      assertThat(state.statusCode()).isEqualTo(200);
      assertThat(state.body()).isEqualTo("{}");
      assertThat(get(server, "/ui/other").statusCode()).isEqualTo(404);
      HttpResponse<String> post = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/ui/state.json"))
              .POST(HttpRequest.BodyPublishers.ofString("x")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
      assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }
  }

  private static HttpResponse<String> get(ProbeServer server, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
