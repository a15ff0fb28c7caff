package io.koord4j.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.utils.TokenRefreshInterceptor;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fabric8's own token renewal, run on a configuration from {@link ClientConfig} whose kubeconfig is
 * rewritten after the client was configured: a renewal that reads the file again shows the new
 * token in the request's Authorization header.
 */
class ClientConfigTest {
  @TempDir Path dir;

  @AfterEach
  void forgetKubeconfig() {
    System.clearProperty(Config.KUBERNETES_KUBECONFIG_FILE);
  }

  @Test
  void aCertificateOnlyClientDoesNotReadItsKubeconfigBeforeEachRequest() throws Exception {
    Path kubeconfig = kubeconfig("client-certificate-data: Y2VydA==\n    client-key-data: a2V5");
    Config config = ClientConfig.fromEnvironment();
    Files.writeString(kubeconfig, kubeconfigText("token: rewritten"));

    assertThat(headersOfARequestDueForRenewal(config)).doesNotContainKey("Authorization");
  }

  @Test
  void aTokenClientStillRenewsItsTokenFromTheKubeconfig() throws Exception {
    Path kubeconfig = kubeconfig("token: first");
    Config config = ClientConfig.fromEnvironment();
    Files.writeString(kubeconfig, kubeconfigText("token: renewed"));

    assertThat(headersOfARequestDueForRenewal(config)).containsEntry("Authorization", "Bearer renewed");
  }

  private Path kubeconfig(String user) throws Exception {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(file, kubeconfigText(user));
    System.setProperty(Config.KUBERNETES_KUBECONFIG_FILE, file.toString());
    return file;
  }

  private static String kubeconfigText(String user) {
    return """
        apiVersion: v1
        kind: Config
        clusters:
        - name: local
          cluster:
            server: https://127.0.0.1:6443
        users:
        - name: admin
          user:
            %s
        contexts:
        - name: local
          context: {cluster: local, user: admin}
        current-context: local
        """.formatted(user);
  }

  /** The headers fabric8's interceptor sets on a request made after its last renewal is a minute old. */
  private static Map<String, String> headersOfARequestDueForRenewal(Config config) {
    Map<String, String> headers = new HashMap<>();
    BasicBuilder builder = (BasicBuilder) Proxy.newProxyInstance(
        BasicBuilder.class.getClassLoader(), new Class<?>[] {BasicBuilder.class}, (proxy, method, args) -> {
          if (method.getName().endsWith("eader")) {
            headers.put((String) args[0], (String) args[1]);
          }
          return proxy;
        });
    new TokenRefreshInterceptor(config, Instant.EPOCH, c -> CompletableFuture.completedFuture(null))
        .before(builder, null, null);
    return headers;
  }
}
