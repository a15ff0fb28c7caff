package io.koord4j.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.webhook.admission.AdmissionHandler;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import io.koord4j.webhook.admission.Reviews;
import io.koord4j.webhook.admission.WouldBlock;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the API server gets when a handler cannot decide: a fail-open (Ignore) endpoint allows the
 * object, a fail-closed one refuses it, both count the internal error, and neither keeps the API
 * server waiting past the server's answer bound. Reviews are answered on the event loop unless a
 * lookup must block.
 */
class AdmissionBoundsTest {
  /** Long enough that a failing handler answers first even on a busy machine. */
  private static final Duration BOUND = Duration.ofMillis(2_500);
  private static final byte[] REVIEW = json(Reviews.create(Reviews.job("ns", Map.of(), Map.of())));
  private static final AdmissionHandler FAILING = review -> {
    throw new IllegalStateException("bug");
  };
  private static final CountDownLatch RELEASE = new CountDownLatch(1);
  /** Waits as a lookup of the API server may: it says so, as those lookups do. */
  private static final AdmissionHandler STUCK = review -> {
    WouldBlock.unlessBlockingAllowed();
    try {
      RELEASE.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return AdmissionResponses.allow(review.getRequest());
  };

  private static ReloadableKeyManager keys;
  private static HttpClient client;
  private SimpleMeterRegistry registry;
  private AdmissionServer server;

  @BeforeAll
  static void trust() throws Exception {
    CertificateAuthority ca = CertificateAuthority.create("bounds-ca", Duration.ofHours(1));
    keys = new ReloadableKeyManager(ca.issueServing(List.of("127.0.0.1"), Duration.ofHours(1)));
    client = HttpClient.newBuilder().sslContext(TrustingTls.of(ca)).version(HttpClient.Version.HTTP_1_1).build();
    // Loading the review's classes on a busy machine may take longer than the bound under test.
    Json.MAPPER.readValue(REVIEW, AdmissionReview.class);
  }

  @AfterAll
  static void release() {
    RELEASE.countDown();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aFailingHandlerOfAFailOpenEndpointAllowsTheObjectAndCountsTheError() throws Exception {
    start(Map.of("/open", AdmissionRoute.failingOpen(FAILING)));

    AdmissionReview answer = post("/open");

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getWarnings()).singleElement().asString().contains("bug");
    assertThat(errors("/open", "exception")).isEqualTo(1);
  }

  @Test
  void aFailingHandlerOfAFailClosedEndpointRefusesTheObjectAndCountsTheError() throws Exception {
    start(Map.of("/closed", AdmissionRoute.failingClosed(FAILING)));

    AdmissionReview answer = post("/closed");

    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getCode()).isEqualTo(500);
    assertThat(errors("/closed", "exception")).isEqualTo(1);
  }

  @Test
  void aHandlerThatDoesNotAnswerInTimeIsAnsweredForByItsFailurePolicy() throws Exception {
    start(Map.of("/open", AdmissionRoute.failingOpen(STUCK), "/closed", AdmissionRoute.failingClosed(STUCK)));

    AdmissionReview open = post("/open");
    AdmissionReview closed = post("/closed");

    assertThat(open.getResponse().getAllowed()).isTrue();
    assertThat(open.getResponse().getWarnings()).singleElement().asString().contains("2.5s");
    assertThat(closed.getResponse().getAllowed()).isFalse();
    assertThat(closed.getResponse().getStatus().getMessage()).contains("2.5s");
    assertThat(errors("/open", "timeout")).isEqualTo(1);
    assertThat(errors("/closed", "timeout")).isEqualTo(1);
  }

  @Test
  void aHandlerThatReadsOnlyMemoryIsAnsweredOnTheEventLoopThatReadTheReview() throws Exception {
    List<String> threads = new CopyOnWriteArrayList<>();
    start(Map.of("/memory", AdmissionRoute.failingClosed(answeringOn(threads))));

    assertThat(post("/memory").getResponse().getAllowed()).isTrue();
    assertThat(threads).singleElement().asString().contains("eventloop");
    assertThat(timed(AdmissionServer.RECEIPT_TIMER, "/memory")).isEqualTo(1);
    assertThat(timed(AdmissionServer.ADMISSION_TIMER, "/memory")).isEqualTo(1);
  }

  @Test
  void aReviewWhoseLookupMustBlockIsAnsweredOnAWorkerWhileOtherReviewsGoOn() throws Exception {
    CountDownLatch lookupAnswers = new CountDownLatch(1);
    List<String> threads = new CopyOnWriteArrayList<>();
    AdmissionHandler blockingLookup = review -> {
      WouldBlock.unlessBlockingAllowed();
      threads.add(Thread.currentThread().getName());
      try {
        lookupAnswers.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return AdmissionResponses.allow(review.getRequest());
    };
    start(Map.of(
        "/lookup", AdmissionRoute.failingClosed(blockingLookup),
        "/memory", AdmissionRoute.failingClosed(answeringOn(new CopyOnWriteArrayList<>()))));

    CompletableFuture<AdmissionReview> waiting = CompletableFuture.supplyAsync(() -> postUnchecked("/lookup"));
    await().atMost(Duration.ofSeconds(20)).until(() -> !threads.isEmpty());
    AdmissionReview meanwhile = post("/memory");
    lookupAnswers.countDown();

    assertThat(meanwhile.getResponse().getAllowed()).isTrue();
    assertThat(waiting.get(20, TimeUnit.SECONDS).getResponse().getAllowed()).isTrue();
    assertThat(threads).singleElement().asString().contains("worker");
    assertThat(registry.find(AdmissionServer.INTERNAL_ERRORS).counters()).isEmpty();
  }

  @Test
  void theAnswerBoundIsShorterThanTheApiServersTimeout() {
    assertThat(AdmissionServer.ANSWER_BOUND)
        .isLessThan(Duration.ofSeconds(io.koord4j.webhook.registration.WebhookConfigurations.TIMEOUT_SECONDS));
  }

  private void start(Map<String, AdmissionRoute> routes) {
    registry = new SimpleMeterRegistry();
    server = AdmissionServer.start("127.0.0.1", 0, keys, routes, registry, false, BOUND);
  }

  /** Allows every object, noting the thread it runs on. */
  private static AdmissionHandler answeringOn(List<String> threads) {
    return review -> {
      threads.add(Thread.currentThread().getName());
      return AdmissionResponses.allow(review.getRequest());
    };
  }

  private AdmissionReview postUnchecked(String path) {
    try {
      return post(path);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private AdmissionReview post(String path) throws Exception {
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(REVIEW))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return Json.MAPPER.readValue(response.body(), AdmissionReview.class);
  }

  private long timed(String timer, String path) {
    return registry.get(timer).tag("path", path).timer().count();
  }

  private double errors(String path, String cause) {
    return registry.get(AdmissionServer.INTERNAL_ERRORS).tag("path", path).tag("cause", cause)
        .counter().count();
  }

  private static byte[] json(Object value) {
    try {
      return Json.MAPPER.writeValueAsBytes(value);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
