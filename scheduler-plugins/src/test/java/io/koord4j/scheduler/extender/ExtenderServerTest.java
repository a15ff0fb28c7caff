package io.koord4j.scheduler.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.DefaultBinder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may call the extender: by default only this host; beyond it, only a client whose
 * certificate the configured CA signed, over TLS.
 */
class ExtenderServerTest {
  private static final String NO_NODES = "{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"NodeNames\":[]}";

  private final ExecutorService pool = Executors.newFixedThreadPool(1);
  private final Extender extender =
      new Extender(
          new Framework(
              List.of(new DefaultBinder((pod, node) -> {})), Map.of(), pool, 1, new WaitingPods(null)),
          new SchedulerCache(pod -> Optional.empty()));
  private ExtenderServer server;

  @TempDir Path dir;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    pool.shutdownNow();
  }

  @Test
  void listensOnLoopbackOnlyByDefault() throws Exception {
    server = new ExtenderServer(ExtenderSettings.onPort(0), extender);

    assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
  }

  @Test
  void refusesToListenBeyondThisHostWithoutTlsAndClientCertificates() {
    assertThatThrownBy(() -> new ExtenderSettings("0.0.0.0", 0, null, null, null))
        .hasMessageContaining("--extender-address 0.0.0.0")
        .hasMessageContaining("--extender-tls-keystore")
        .hasMessageContaining("--extender-client-ca");
    assertThatThrownBy(() -> new ExtenderSettings("127.0.0.1", 0, dir.resolve("k.p12"), "", null))
        .hasMessage("--extender-tls-keystore and --extender-client-ca go together");
  }

  @Test
  void withTlsOnlyClientsWithACertificateOfTheCaAreServed() throws Exception {
    TestCertificates certificates = new TestCertificates();
    Path serverKeys = certificates.keyStore(dir, "extender");
    Path clientKeys = certificates.keyStore(dir, "kube-scheduler");
    TestCertificates stranger = new TestCertificates();
    Path strangerKeys = stranger.keyStore(dir, "stranger");
    server = new ExtenderServer(
        new ExtenderSettings("0.0.0.0", 0, serverKeys, new String(TestCertificates.PASSWORD),
            certificates.caPem(dir)),
        extender);

    assertThat(post(certificates, clientKeys)).isEqualTo(200);
    assertThat(failsToPost(certificates, null)).as("no client certificate").isTrue();
    assertThat(failsToPost(certificates, strangerKeys)).as("another CA's certificate").isTrue();
  }

  private int post(TestCertificates trust, Path clientKeys) throws Exception {
    HttpClient client = HttpClient.newBuilder().sslContext(trust.client(clientKeys)).build();
    return client.send(
            HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.address().getPort() + "/filter"))
                .POST(HttpRequest.BodyPublishers.ofString(NO_NODES))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  private boolean failsToPost(TestCertificates trust, Path clientKeys) {
    try {
      post(trust, clientKeys);
      return false;
    } catch (Exception e) {
      return true;
    }
  }
}
