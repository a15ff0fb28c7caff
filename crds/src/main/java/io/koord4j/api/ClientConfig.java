package io.koord4j.api;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * The API client configuration of koord4j's processes: KUBECONFIG (or ~/.kube/config) or the
 * in-cluster service account, as fabric8 finds them.
 *
 * <p>fabric8 renews a client's bearer token by reading its configuration again, and while it finds
 * none it reads again before every request. A configuration that authenticates by client
 * certificate alone never has a token, so each request would read and parse the kubeconfig (about a
 * millisecond of CPU, a tenth of a busy manager's). Such a configuration gets a token source that
 * answers "none", which ends the search; a token, a token file, an exec plugin's token or an auth
 * provider keeps fabric8's renewal.
 */
public final class ClientConfig {
  private ClientConfig() {}

  /**
   * A client on {@link #fromEnvironment()} with fabric8's own TLS, for tools without the probes
   * module (the kubectl plugin); koord4j's processes use {@code NativeTlsClientFactory.client()}.
   */
  public static KubernetesClient client() {
    return new KubernetesClientBuilder()
        .withConfig(fromEnvironment())
        .withKubernetesSerialization(ClientSerialization.withoutManagedFields())
        .build();
  }

  public static Config fromEnvironment() {
    Config config = Config.autoConfigure(null);
    if (authenticatesByCertificateOnly(config)) {
      config.setOauthTokenProvider(() -> null);
    }
    return config;
  }

  private static boolean authenticatesByCertificateOnly(Config config) {
    return isBlank(config.getOauthToken())
        && isBlank(config.getAutoOAuthToken())
        && config.getOauthTokenProvider() == null
        && isBlank(config.getUsername())
        && config.getAuthProvider() == null
        && !(isBlank(config.getClientCertData()) && isBlank(config.getClientCertFile()));
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
