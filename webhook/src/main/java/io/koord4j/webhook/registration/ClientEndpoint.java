package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** How the API server reaches the webhook: through a Service in-cluster, or a URL locally. */
public sealed interface ClientEndpoint {

  WebhookClientConfig clientConfig(String path, String caBundlePem);

  record Service(String namespace, String name, int port) implements ClientEndpoint {
    @Override
    public WebhookClientConfig clientConfig(String path, String caBundlePem) {
      return new WebhookClientConfigBuilder()
          .withNewService()
          .withNamespace(namespace)
          .withName(name)
          .withPort(port)
          .withPath(path)
          .endService()
          .withCaBundle(base64(caBundlePem))
          .build();
    }
  }

  /** {@code https://<host>:<port>}, for an API server that runs next to the webhook. */
  record Url(String host, int port) implements ClientEndpoint {
    @Override
    public WebhookClientConfig clientConfig(String path, String caBundlePem) {
      return new WebhookClientConfigBuilder()
          .withUrl("https://" + host + ":" + port + path)
          .withCaBundle(base64(caBundlePem))
          .build();
    }
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8));
  }
}
