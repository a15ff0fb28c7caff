package io.koord4j.scheduler.kube;

import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The binder's requests through the fabric8 client, against an HTTP server that records them. */
class ApiBinderClientTest {
  private static final String BINDINGS = "POST /api/v1/namespaces/default/bindings";
  private static final String POD = "GET /api/v1/namespaces/default/pods/p";

  private final Pod pod = pod("p", "1", "1Gi");
  private final List<String> received = new CopyOnWriteArrayList<>();
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  /** Status code and body per request; anything else is 404. */
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private HttpServer server;
  private KubernetesClient client;

  private record Answer(int code, String body) {}

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::answer);
    server.start();
    client = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort()).build())
        .build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.stop(0);
  }

  @Test
  void postsTheBindingToThePodsNamespace() {
    answers.put(BINDINGS, new Answer(201, "{}"));

    new ApiBinder(client).bind(pod, "n1");

    assertThat(received).containsExactly(BINDINGS);
    Binding posted = Serialization.unmarshal(bodies.get(0), Binding.class);
    assertThat(posted.getMetadata().getUid()).isEqualTo(pod.getMetadata().getUid());
    assertThat(posted.getTarget().getKind()).isEqualTo("Node");
    assertThat(posted.getTarget().getName()).isEqualTo("n1");
  }

  @Test
  void aConflictIsSettledByReadingThePodBack() {
    answers.put(BINDINGS, new Answer(409,
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Conflict\",\"code\":409}"));
    Pod bound = new PodBuilder(pod).editSpec().withNodeName("n1").endSpec().build();
    answers.put(POD, new Answer(200, Serialization.asJson(bound)));

    new ApiBinder(client).bind(pod, "n1");

    assertThat(received).containsExactly(BINDINGS, POD);
  }

  private void answer(HttpExchange exchange) throws IOException {
    String request = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
    received.add(request);
    bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    Answer answer = answers.getOrDefault(request,
        new Answer(404, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":404}"));
    byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(answer.code(), body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }
}
