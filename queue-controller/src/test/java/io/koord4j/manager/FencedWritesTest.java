package io.koord4j.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A client fenced by the lease, against an HTTP server that records what reaches it. */
class FencedWritesTest {
  private final List<String> received = new CopyOnWriteArrayList<>();
  private final AtomicBoolean leading = new AtomicBoolean(true);
  private volatile boolean unavailable;
  private HttpServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::answer);
    server.start();
    client = FencedWrites.client(
        new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort()).build(), leading::get);
  }

  @AfterEach
  void stop() {
    client.close();
    server.stop(0);
  }

  @Test
  void theLeaderWrites() {
    client.configMaps().inNamespace("team").resource(configMap()).create();

    assertThat(received).containsExactly("POST /api/v1/namespaces/team/configmaps");
  }

  @Test
  void aReplicaThatMayNoLongerLeadSendsNoWriteButStillReads() {
    leading.set(false);

    assertThatThrownBy(() -> client.configMaps().inNamespace("team").resource(configMap()).create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("POST /api/v1/namespaces/team/configmaps not sent")
        .hasMessageContaining("may no longer hold the leader Lease");
    assertThatThrownBy(() -> client.configMaps().inNamespace("team").withName("settings").delete())
        .hasMessageContaining("DELETE /api/v1/namespaces/team/configmaps/settings not sent");
    assertThat(client.configMaps().inNamespace("team").withName("settings").get()).isNull();

    assertThat(received).containsExactly("GET /api/v1/namespaces/team/configmaps/settings");
  }

  @Test
  void aWriteThatFailedIsNotSentAgainByTheClient() {
    unavailable = true;

    assertThatThrownBy(() -> client.configMaps().inNamespace("team").resource(configMap()).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(503));

    // A retry could land after the lease has passed on; the controllers retry themselves, fenced.
    assertThat(received).containsExactly("POST /api/v1/namespaces/team/configmaps");
  }

  private static ConfigMap configMap() {
    return new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata().addToData("a", "1").build();
  }

  /** Echoes a write as stored, unless unavailable; nothing is there to read. */
  private void answer(HttpExchange exchange) throws IOException {
    received.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
    if (unavailable) {
      exchange.sendResponseHeaders(503, -1);
      exchange.close();
      return;
    }
    byte[] body = exchange.getRequestMethod().equals("GET")
        ? "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":404,\"reason\":\"NotFound\"}"
            .getBytes(StandardCharsets.UTF_8)
        : exchange.getRequestBody().readAllBytes();
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(exchange.getRequestMethod().equals("GET") ? 404 : 201, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }
}
