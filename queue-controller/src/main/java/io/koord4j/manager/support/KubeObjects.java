package io.koord4j.manager.support;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;

/** Small client idioms shared by the controllers. */
public final class KubeObjects {
  private KubeObjects() {}

  /** Creates the object; one that exists already (a stale cache did not show it) is fine. */
  public static void createIfAbsent(KubernetesClient client, HasMetadata object) {
    try {
      client.resource(object).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
    }
  }
}
