package io.koord4j.testing;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.PodResource;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A client of the local cluster and a namespace of its own for one test class: made before the
 * class's tests (see {@link LocalCluster#createNamespace}), deleted after them. Register it as a
 * static field with {@code @RegisterExtension}.
 */
public final class LocalNamespace implements BeforeAllCallback, AfterAllCallback {
  private final String prefix;
  private KubernetesClient client;
  private String name;

  /** @param prefix the namespace's name before its random suffix */
  public LocalNamespace(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    client = LocalCluster.client();
    name = LocalCluster.createNamespace(client, prefix);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (client != null) {
      if (name != null) {
        client.namespaces().withName(name).delete();
      }
      client.close();
    }
  }

  public KubernetesClient client() {
    return client;
  }

  public String name() {
    return name;
  }

  /** The pods of the namespace. */
  public NonNamespaceOperation<Pod, PodList, PodResource> pods() {
    return client.pods().inNamespace(name);
  }
}
