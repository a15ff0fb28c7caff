package io.koord4j.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.webhook.admission.AdmissionHandler;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import io.koord4j.webhook.admission.Reviews;
import io.koord4j.webhook.tls.CertificateAuthority;
import io.koord4j.webhook.tls.ReloadableKeyManager;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server told to stop gracefully, as when its pod is replaced: reviews under way are answered,
 * and answers given meanwhile tell the client to open its next connection anew (to the successor).
 */
class GracefulCloseTest {
  private static final byte[] REVIEW = json(Reviews.create(Reviews.job("ns", Map.of(), Map.of())));
  private final CountDownLatch handlerEntered = new CountDownLatch(1);
  private final CountDownLatch handlerReleased = new CountDownLatch(1);
  private final AdmissionHandler slow = review -> {
    handlerEntered.countDown();
    try {
      handlerReleased.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return AdmissionResponses.allow(review.getRequest());
  };
  private ReloadableKeyManager keys;
  private HttpClient client;
  private AdmissionServer server;

  @BeforeEach
  void trust() throws Exception {
    CertificateAuthority ca = CertificateAuthority.create("graceful-ca", Duration.ofHours(1));
    keys = new ReloadableKeyManager(ca.issueServing(List.of("127.0.0.1"), Duration.ofHours(1)));
    client = HttpClient.newBuilder().sslContext(TrustingTls.of(ca)).version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterEach
  void stop() {
    handlerReleased.countDown();
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aReviewUnderWayIsAnsweredAndLaterAnswersCloseTheirConnection() throws Exception {
    server = start(Map.of("/slow", AdmissionRoute.failingClosed(slow), "/fast", fast()));
    CompletableFuture<HttpResponse<String>> underWay = client.sendAsync(post("/slow"), HttpResponse.BodyHandlers.ofString());
    assertThat(handlerEntered.await(10, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> server.closeGracefully(Duration.ofMillis(500)));
    await().atMost(Duration.ofSeconds(5)).until(server::draining);
    HttpResponse<String> meanwhile = client.send(post("/fast"), HttpResponse.BodyHandlers.ofString());
    handlerReleased.countDown();

    assertThat(meanwhile.statusCode()).isEqualTo(200);
    assertThat(meanwhile.headers().firstValue("connection")).hasValue("close");
    assertThat(allowed(underWay.get(10, TimeUnit.SECONDS))).isTrue();
    closing.get(10, TimeUnit.SECONDS);
    assertThat(server.underWay()).isZero();
  }

  private static AdmissionRoute fast() {
    return AdmissionRoute.failingClosed(review -> AdmissionResponses.allow(review.getRequest()));
  }

  private AdmissionServer start(Map<String, AdmissionRoute> routes) {
    // A bound longer than any pause of a loaded machine: the slow review is the handler's to answer.
    return AdmissionServer.start("127.0.0.1", 0, keys, routes, new SimpleMeterRegistry(), false, Duration.ofMinutes(1));
  }

  private HttpRequest post(String path) {
    return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofByteArray(REVIEW))
        .build();
  }

  private static boolean allowed(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).isEqualTo(200);
    return Json.MAPPER.readValue(response.body(), AdmissionReview.class).getResponse().getAllowed();
  }

  private static byte[] json(Object value) {
    try {
      return Json.MAPPER.writeValueAsBytes(value);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
