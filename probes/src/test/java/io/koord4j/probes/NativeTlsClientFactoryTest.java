package io.koord4j.probes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.vertx.core.Vertx;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SelfSignedCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link NativeTlsClientFactory#client()} against an HTTPS server that, like the API server, wants
 * a client certificate: lists and a watch work in BoringSSL, with the kubeconfig's certificate
 * presented and only the kubeconfig's certificate authority trusted.
 */
@Timeout(60)
class NativeTlsClientFactoryTest {
  @TempDir Path dir;

  private final Vertx vertx = Vertx.vertx();
  private final SelfSignedCertificate serverCertificate = SelfSignedCertificate.create("localhost");
  private final SelfSignedCertificate clientCertificate = SelfSignedCertificate.create("koord4j-test-user");
  private final List<String> requests = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    System.clearProperty(Config.KUBERNETES_KUBECONFIG_FILE);
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void tlsRunsInBoringSslOnThisPlatform() {
    assertThat(NativeTls.engine()).isInstanceOf(OpenSSLEngineOptions.class);
  }

  @Test
  void listsAndWatchesPresentTheKubeconfigsClientCertificate() throws Exception {
    pointKubeconfigAt(startServer(), serverCertificate.certificatePath());

    try (KubernetesClient client = NativeTlsClientFactory.client();
        Watch watch = client.configMaps().inNamespace("team-a").watch(new IgnoringWatcher())) {
      assertThat(client.configMaps().inNamespace("team-a").list().getItems()).isEmpty();
      await().atMost(Duration.ofSeconds(10)).until(() -> requests.stream().anyMatch(r -> r.contains("watch=true")));
    }

    assertThat(requests).hasSizeGreaterThanOrEqualTo(2).allMatch(r -> r.startsWith("CN=koord4j-test-user "));
  }

  @Test
  void aServerCertificateFromAnotherAuthorityIsRefused() throws Exception {
    SelfSignedCertificate otherAuthority = SelfSignedCertificate.create("localhost");
    pointKubeconfigAt(startServer(), otherAuthority.certificatePath());

    try (KubernetesClient client = NativeTlsClientFactory.client()) {
      assertThatThrownBy(() -> client.configMaps().inNamespace("team-a").list())
          .isInstanceOf(KubernetesClientException.class);
    }
    assertThat(requests).isEmpty();
  }

  private int startServer() {
    HttpServer server =
        vertx
            .createHttpServer(
                new HttpServerOptions()
                    .setSsl(true)
                    .setKeyCertOptions(serverCertificate.keyCertOptions())
                    .setClientAuth(ClientAuth.REQUIRED)
                    .setTrustOptions(new PemTrustOptions().addCertPath(clientCertificate.certificatePath()))
                    .setHost("localhost")
                    .setPort(0))
            .requestHandler(this::serve);
    return server.listen().toCompletionStage().toCompletableFuture().join().actualPort();
  }

  private void serve(HttpServerRequest request) {
    try {
      X509Certificate peer = (X509Certificate) request.connection().peerCertificates().get(0);
      requests.add(peer.getSubjectX500Principal().getName() + " " + request.method() + " " + request.uri());
    } catch (Exception e) {
      requests.add("no client certificate " + request.uri());
    }
    if ("true".equals(request.getParam("watch"))) {
      request.toWebSocket(); // fabric8 watches over a WebSocket, which stays open with no events
      return;
    }
    request.response().putHeader("Content-Type", "application/json");
    request.response().end("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}");
  }

  private void pointKubeconfigAt(int port, String authorityFile) throws Exception {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: local
          cluster:
            server: https://localhost:%d
            certificate-authority: %s
        users:
        - name: admin
          user:
            client-certificate: %s
            client-key: %s
        contexts:
        - name: local
          context:
            cluster: local
            user: admin
        current-context: local
        """
            .formatted(port, authorityFile, clientCertificate.certificatePath(), clientCertificate.privateKeyPath()));
    System.setProperty(Config.KUBERNETES_KUBECONFIG_FILE, kubeconfig.toString());
  }

  private static final class IgnoringWatcher implements Watcher<ConfigMap> {
    @Override
    public void eventReceived(Action action, ConfigMap resource) {}

    @Override
    public void onClose(WatcherException cause) {}
  }
}
