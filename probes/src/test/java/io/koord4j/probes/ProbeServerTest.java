package io.koord4j.probes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ProbeServerTest {
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  @Test
  void readinessFollowsTheProcessAndMetricsAreScraped() throws Exception {
    registry.counter("koord4j_probe_test").increment();
    AtomicBoolean ready = new AtomicBoolean();
    try (ProbeServer server = ProbeServer.start(ProbeServer.Listen.onPort(0), registry, ready::get)) {
      assertThat(get(server.port(), "/readyz").statusCode()).isEqualTo(503);
      ready.set(true);

      assertThat(get(server.port(), "/readyz").statusCode()).isEqualTo(200);
      assertThat(get(server.port(), "/healthz").body()).isEqualTo("ok");
      assertThat(get(server.port(), "/metrics").body()).contains("koord4j_probe_test_total 1.0");
      assertThat(get(server.port(), "/other").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void aSuccessorListensOnASharedPortWhileItsPredecessorStillServes() throws Exception {
    try (ProbeServer predecessor = ProbeServer.start(shared(0), registry, () -> true);
        ProbeServer successor = ProbeServer.start(shared(predecessor.port()), registry, () -> true)) {
      assertThat(successor.port()).isEqualTo(predecessor.port());
      predecessor.close();

      assertThat(get(successor.port(), "/healthz").body()).isEqualTo("ok");
    }
  }

  @Test
  void aPortNotSharedIsRefusedToASecondServer() throws Exception {
    try (ProbeServer first = ProbeServer.start(ProbeServer.Listen.onPort(0), registry, () -> true)) {
      assertThatThrownBy(() -> ProbeServer.start(ProbeServer.Listen.onPort(first.port()), registry, () -> true))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("in use");
    }
  }

  @Test
  void addedPagesAnswerGetAndRefuseEveryWritingMethod() throws Exception {
    try (ProbeServer server = ProbeServer.start(ProbeServer.Listen.onPort(0), registry, () -> true)) {
      server.serve("/ui", request -> CompletableFuture.completedFuture(request.path().equals("/ui/state.json")
          ? new ProbeServer.Reply(200, "application/json", "{}")
          : ProbeServer.Reply.notFound()));

      HttpResponse<String> state = get(server.port(), "/ui/state.json");
      assertThat(state.statusCode()).isEqualTo(200);
      assertThat(state.body()).isEqualTo("{}");
      assertThat(get(server.port(), "/ui/other").statusCode()).isEqualTo(404);
      HttpResponse<String> post = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/ui/state.json"))
              .POST(HttpRequest.BodyPublishers.ofString("x")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
      assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }
  }

  @Test
  void aPageSeesTheQueryAndHeadersAndMayAnswerLaterWithHeadersOfItsOwn() throws Exception {
    try (ProbeServer server = ProbeServer.start(ProbeServer.Listen.onPort(0), registry, () -> true)) {
      server.serve("/ui", request -> CompletableFuture.supplyAsync(() -> new ProbeServer.Reply(
          200, "text/plain", request.parameter("limit").orElse("-") + " " + request.header("x-Token").orElse("-"),
          Map.of("WWW-Authenticate", "Bearer"))));

      HttpResponse<String> reply = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/ui/x?limit=5&limit=6"))
              .header("X-Token", "t").build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(reply.body()).isEqualTo("5 t");
      assertThat(reply.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
      assertThat(reply.headers().firstValue("Cache-Control")).hasValue("no-store");
      assertThat(statusLine(server.port(), "/ui/x?limit=%zz")).as("a malformed query").contains(" 400 ");
    }
  }

  @Test
  void aServerGivenOneAddressListensOnThatAddressOnly() throws Exception {
    ProbeServer.Listen loopbackOnly = new ProbeServer.Listen(Optional.of("127.0.0.1"), 0, false);
    try (ProbeServer everywhere = ProbeServer.start(ProbeServer.Listen.onPort(0), registry, () -> true);
        ProbeServer onLoopback = ProbeServer.start(loopbackOnly, registry, () -> true)) {
      // Linux answers all of 127.0.0.0/8 on its loopback interface.
      assertThat(get("127.0.0.2", everywhere.port(), "/healthz").body()).isEqualTo("ok");
      assertThat(get(onLoopback.port(), "/healthz").body()).isEqualTo("ok");
      assertThatThrownBy(() -> get("127.0.0.2", onLoopback.port(), "/healthz")).isInstanceOf(ConnectException.class);
    }
  }

  /** The status line of a GET sent as written, which java.net.URI would refuse to carry. */
  private static String statusLine(int port, String target) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
    }
  }

  private static ProbeServer.Listen shared(int port) {
    return new ProbeServer.Listen(Optional.empty(), port, true);
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return get("127.0.0.1", port, path);
  }

  private static HttpResponse<String> get(String host, int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
