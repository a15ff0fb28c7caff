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
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server told to stop gracefully, as when its pod is replaced: reviews under way are answered,
 * and answers given meanwhile tell the client to open its next connection anew (to the successor).
 * A successor on the same port takes every new connection without a review failing.
 */
class GracefulCloseTest {
  private static final byte[] REVIEW = json(Reviews.create(Reviews.job("ns", Map.of(), Map.of())));
  private final CountDownLatch handlerEntered = new CountDownLatch(1);
  private final CountDownLatch handlerReleased = new CountDownLatch(1);
  private final AdmissionHandler slow = review -> {
    WouldBlock.unlessBlockingAllowed();
    handlerEntered.countDown();
    try {
      handlerReleased.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return AdmissionResponses.allow(review.getRequest());
  };
  private ReloadableKeyManager keys;
  private SSLContext tls;
  private HttpClient client;
  private AdmissionServer server;
  private AdmissionServer successor;

  @BeforeEach
  void trust() throws Exception {
    CertificateAuthority ca = CertificateAuthority.create("graceful-ca", Duration.ofHours(1));
    keys = new ReloadableKeyManager(ca.issueServing(List.of("127.0.0.1"), Duration.ofHours(1)));
    tls = TrustingTls.of(ca);
    client = HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterEach
  void stop() {
    handlerReleased.countDown();
    for (AdmissionServer started : new AdmissionServer[] {server, successor}) {
      if (started != null) {
        started.close();
      }
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

  @Test
  void overHttp2ReviewsShareOneConnectionAndADrainingServerSendsTheClientToANewOne() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    server = AdmissionServer.start("127.0.0.1", 0, keys, Map.of("/fast", fast()), registry, false, Duration.ofMinutes(1));
    HttpClient http2 = HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_2).build();
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> response = http2.send(post("/fast"), HttpResponse.BodyHandlers.ofString());
      assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
      assertThat(allowed(response)).isTrue();
    }
    assertThat(connections(registry)).as("five reviews, one connection").isEqualTo(1);

    CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> server.closeGracefully(Duration.ofSeconds(5)));
    await().atMost(Duration.ofSeconds(5)).until(server::draining);

    await("the client moves to a new connection").atMost(Duration.ofSeconds(4)).untilAsserted(() -> {
      assertThat(allowed(http2.send(post("/fast"), HttpResponse.BodyHandlers.ofString()))).isTrue();
      assertThat(connections(registry)).isGreaterThan(1);
    });
    closing.get(20, TimeUnit.SECONDS);
  }

  private static double connections(SimpleMeterRegistry registry) {
    return registry.get(AdmissionServer.CONNECTIONS).counter().count();
  }

  @Test
  void onASharedPortTheSuccessorTakesOverWhileReviewsArriveOnNewConnectionsAndNoneFails() throws Exception {
    AtomicInteger answeredByOld = new AtomicInteger();
    AtomicInteger answeredBySuccessor = new AtomicInteger();
    server = startShared(0, answeredByOld);
    successor = startShared(server.port(), answeredBySuccessor);
    AtomicBoolean submitting = new AtomicBoolean(true);
    List<String> failures = new CopyOnWriteArrayList<>();
    List<Thread> submitters = List.of(submitter(submitting, failures), submitter(submitting, failures));
    submitters.forEach(Thread::start);
    await("the kernel spreads new connections over both servers").atMost(Duration.ofMinutes(1))
        .until(() -> answeredByOld.get() > 0 && answeredBySuccessor.get() > 0);

    server.closeGracefully(Duration.ofMillis(300));
    int successorAtClose = answeredBySuccessor.get();
    await("the successor answers on").atMost(Duration.ofMinutes(1))
        .until(() -> answeredBySuccessor.get() > successorAtClose + 50);
    submitting.set(false);
    for (Thread submitter : submitters) {
      submitter.join(Duration.ofSeconds(30).toMillis());
    }

    assertThat(failures).as("reviews that failed during the handover").isEmpty();
  }

  /** Posts reviews, each on a connection of its own, as the API server does to a draining server. */
  private Thread submitter(AtomicBoolean submitting, List<String> failures) {
    return new Thread(() -> {
      while (submitting.get()) {
        try {
          String status = postOnNewConnection(server.port());
          if (!status.startsWith("HTTP/1.1 200")) {
            failures.add(status);
          }
        } catch (IOException e) {
          failures.add(e.toString());
        }
      }
    });
  }

  private String postOnNewConnection(int port) throws IOException {
    try (Socket socket = tls.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout((int) Duration.ofSeconds(30).toMillis());
      OutputStream out = socket.getOutputStream();
      out.write(("POST /review HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Connection: close\r\nContent-Length: " + REVIEW.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(REVIEW);
      out.flush();
      InputStream in = socket.getInputStream();
      String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return reply.isEmpty() ? "no answer" : reply.lines().findFirst().orElseThrow();
    }
  }

  private AdmissionServer startShared(int port, AtomicInteger answered) {
    AdmissionRoute counting = AdmissionRoute.failingClosed(review -> {
      answered.incrementAndGet();
      return AdmissionResponses.allow(review.getRequest());
    });
    return AdmissionServer.start("127.0.0.1", port, keys, Map.of("/review", counting), new SimpleMeterRegistry(), true, Duration.ofMinutes(1));
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
