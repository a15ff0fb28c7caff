package io.koord4j.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.webhook.admission.Json;
import io.koord4j.webhook.admission.JobMutator;
import io.koord4j.webhook.admission.FixedQueues;
import io.koord4j.webhook.admission.Reviews;
import io.koord4j.webhook.tls.CertificateAuthority;
import io.koord4j.webhook.tls.ReloadableKeyManager;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The running server over real TLS: random and damaged reviews never crash it or get a 5xx. */
class AdmissionServerFuzzTest {
  private static final String PATH = "/mutate-jobs";
  private static CertificateAuthority ca;
  private static ReloadableKeyManager keys;
  private static AdmissionServer server;
  private static HttpClient client;
  private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeAll
  static void start() throws Exception {
    ca = CertificateAuthority.create("fuzz-ca", Duration.ofHours(1));
    keys = new ReloadableKeyManager(ca.issueServing(List.of("127.0.0.1"), Duration.ofHours(1)));
    JobMutator mutator = new JobMutator(JobAdapters.builtIn(), FixedQueues.in("team-a", "gpu"), List::of, true, "koord4j");
    server = AdmissionServer.start(
        "127.0.0.1", 0, keys, Map.of(PATH, AdmissionRoute.failingClosed(mutator.handler(false))), registry);
    client = HttpClient.newBuilder().sslContext(TrustingTls.of(ca)).version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void healthz() throws Exception {
    HttpResponse<String> response = client.send(
        HttpRequest.newBuilder(uri("/healthz")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
  }

  @Test
  void validReviewGetsItsPatch() throws Exception {
    AdmissionReview review = Reviews.create(
        Reviews.job("team", Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of()));
    HttpResponse<String> response = post(Json.MAPPER.writeValueAsBytes(review)).join();

    assertThat(response.statusCode()).isEqualTo(200);
    AdmissionReview answer = Json.MAPPER.readValue(response.body(), AdmissionReview.class);
    assertThat(answer.getResponse().getUid()).isEqualTo(review.getRequest().getUid());
    assertThat(registry.get("koord4j.webhook.admission").tag("path", PATH).timer().count())
        .isPositive();
    assertThat(Reviews.patched(review, answer).at("/spec/suspend").asBoolean()).isTrue();
  }

  @Test
  void oversizedReviewIsRefusedWith400() {
    byte[] body = new byte[AdmissionServer.MAX_BODY_BYTES + 1];
    java.util.Arrays.fill(body, (byte) ' ');

    HttpResponse<String> response = post(body).join();

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("larger than");
  }

  @Test
  void tenThousandRandomAndDamagedReviews() throws Exception {
    Random random = new Random(7);
    Queue<String> failures = new ConcurrentLinkedQueue<>();
    Semaphore inFlight = new Semaphore(16);
    List<CompletableFuture<?>> calls = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      byte[] body = fuzzedBody(random);
      String sentUid = uidOf(body);
      inFlight.acquire();
      calls.add(post(body).whenComplete((response, error) -> {
        inFlight.release();
        String problem = error != null ? "no response: " + error : check(response, sentUid);
        if (problem != null) {
          failures.add(problem + " for " + preview(body));
        }
      }));
    }
    CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();

    assertThat(failures).isEmpty();
  }

  @Test
  void rotationUnderLoadFailsNoRequest() throws Exception {
    Queue<String> failures = new ConcurrentLinkedQueue<>();
    Semaphore inFlight = new Semaphore(16);
    List<CompletableFuture<?>> calls = new ArrayList<>();
    HttpClient freshConnections = client;
    for (int i = 0; i < 600; i++) {
      if (i % 100 == 50) {
        keys.swap(ca.issueServing(List.of("127.0.0.1"), Duration.ofHours(1)));
      }
      byte[] body = Json.MAPPER.writeValueAsBytes(Reviews.create(
          Reviews.job("team", Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of())));
      inFlight.acquire();
      calls.add(post(body).whenComplete((response, error) -> {
        inFlight.release();
        if (error != null || response.statusCode() != 200) {
          failures.add(error != null ? error.toString() : response.body());
        }
      }));
      if (i % 50 == 0) {
        // a new client forces new handshakes, so both old and new certificates are exercised
        freshConnections = HttpClient.newBuilder().sslContext(client.sslContext())
            .version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> direct = freshConnections.send(
            HttpRequest.newBuilder(uri("/healthz")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(direct.statusCode()).isEqualTo(200);
      }
    }
    CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();

    assertThat(failures).isEmpty();
  }

  /** null when the reply is well formed: 200 with the request's uid, or 400 with a message. */
  private static String check(HttpResponse<String> response, String sentUid) {
    if (response.statusCode() == 400) {
      return response.body().isBlank() ? "400 without a message" : null;
    }
    if (response.statusCode() != 200) {
      return "status " + response.statusCode() + ": " + response.body();
    }
    try {
      AdmissionReview answer = Json.MAPPER.readValue(response.body(), AdmissionReview.class);
      String uid = answer.getResponse() == null ? null : answer.getResponse().getUid();
      return sentUid != null && sentUid.equals(uid) ? null : "uid " + uid + " for " + sentUid;
    } catch (Exception e) {
      return "unreadable 200 body: " + e;
    }
  }

  private static byte[] fuzzedBody(Random random) throws Exception {
    JsonNode valid = Json.MAPPER.valueToTree(Reviews.create(Reviews.job(
        "ns" + random.nextInt(3),
        random.nextBoolean() ? Map.of(WellKnown.KUEUE_QUEUE_NAME, "q" + random.nextInt(2)) : Map.of(),
        random.nextBoolean() ? Map.of("koord-queue/queue-name", "gpu") : Map.of())));
    byte[] json = Json.MAPPER.writeValueAsBytes(valid);
    switch (random.nextInt(8)) {
      case 0:
        return json;
      case 1:
        byte[] noise = new byte[random.nextInt(300)];
        random.nextBytes(noise);
        return noise;
      case 2:
        return java.util.Arrays.copyOf(json, random.nextInt(json.length));
      case 3:
        for (int flips = 1 + random.nextInt(5); flips > 0; flips--) {
          json[random.nextInt(json.length)] = (byte) random.nextInt(256);
        }
        return json;
      case 4:
        return ("[".repeat(random.nextInt(5000)) + "]").getBytes(StandardCharsets.UTF_8);
      default:
        for (int changes = 1 + random.nextInt(4); changes > 0; changes--) {
          damage(valid, random);
        }
        return Json.MAPPER.writeValueAsBytes(valid);
    }
  }

  /** Replaces or removes one random member or element somewhere in the tree. */
  private static void damage(JsonNode root, Random random) {
    JsonNode node = root;
    while (true) {
      List<String> names = new ArrayList<>();
      Iterator<String> fields = node.fieldNames();
      fields.forEachRemaining(names::add);
      int size = node.isObject() ? names.size() : node.size();
      if (size == 0 || (!node.isObject() && !node.isArray())) {
        return;
      }
      int index = random.nextInt(size);
      JsonNode child = node.isObject() ? node.get(names.get(index)) : node.get(index);
      if ((child.isContainerNode() && random.nextInt(3) > 0)) {
        node = child;
        continue;
      }
      JsonNode replacement = randomValue(random);
      if (node instanceof ObjectNode object) {
        if (replacement == null) {
          object.remove(names.get(index));
        } else {
          object.set(names.get(index), replacement);
        }
      } else if (node instanceof ArrayNode array) {
        if (replacement == null) {
          array.remove(index);
        } else {
          array.set(index, replacement);
        }
      }
      return;
    }
  }

  private static JsonNode randomValue(Random random) {
    var nodes = Json.MAPPER.getNodeFactory();
    return switch (random.nextInt(7)) {
      case 0 -> null;
      case 1 -> nodes.nullNode();
      case 2 -> nodes.numberNode(random.nextLong());
      case 3 -> nodes.textNode("x".repeat(random.nextInt(20)));
      case 4 -> nodes.booleanNode(random.nextBoolean());
      case 5 -> nodes.arrayNode().add(random.nextInt());
      default -> nodes.objectNode().put("k", "v");
    };
  }

  private static String uidOf(byte[] body) {
    try {
      JsonNode uid = Json.MAPPER.readTree(body).path("request").path("uid");
      return uid.isTextual() ? uid.asText() : null;
    } catch (Exception e) {
      return null;
    }
  }

  private static String preview(byte[] body) {
    String text = new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8);
    return text.replaceAll("[^\\x20-\\x7e]", "?");
  }

  private static CompletableFuture<HttpResponse<String>> post(byte[] body) {
    return client.sendAsync(
        HttpRequest.newBuilder(uri(PATH)).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create("https://127.0.0.1:" + server.port() + path);
  }
}
