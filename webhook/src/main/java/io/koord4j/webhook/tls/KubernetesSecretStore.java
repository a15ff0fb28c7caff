package io.koord4j.webhook.tls;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** A {@link SecretStore} over a real Secret; conflicts (409) are reported, not thrown. */
public record KubernetesSecretStore(KubernetesClient client, String namespace, String name)
    implements SecretStore {
  @Override
  public Optional<Stored> read() {
    Secret secret = secret().get();
    if (secret == null) {
      return Optional.empty();
    }
    Map<String, String> data =
        secret.getData() == null
            ? Map.of()
            : secret.getData().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> decode(entry.getValue())));
    return Optional.of(new Stored(data, secret.getMetadata().getResourceVersion()));
  }

  @Override
  public boolean createIfAbsent(Map<String, String> data) {
    return unlessConflict(() -> client.secrets().resource(build(data, null)).create());
  }

  @Override
  public boolean replace(Map<String, String> data, String resourceVersion) {
    return unlessConflict(() -> client.secrets().resource(build(data, resourceVersion)).update());
  }

  private Resource<Secret> secret() {
    return client.secrets().inNamespace(namespace).withName(name);
  }

  private Secret build(Map<String, String> data, String resourceVersion) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .withResourceVersion(resourceVersion)
        .addToLabels("app.kubernetes.io/managed-by", "koord4j")
        .endMetadata()
        .withType("kubernetes.io/tls")
        .withData(
            data.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> encode(entry.getValue()))))
        .build();
  }

  private static boolean unlessConflict(Runnable write) {
    try {
      write.run();
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        return false;
      }
      throw e;
    }
  }

  private static String encode(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
