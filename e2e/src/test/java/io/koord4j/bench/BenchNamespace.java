package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/**
 * A namespace for one benchmark block; {@link #close} deletes it and waits until it is gone with
 * its pods, so that the next block starts on empty nodes.
 */
final class BenchNamespace implements AutoCloseable {
  private static final Duration DELETE_TIMEOUT = Duration.ofMinutes(10);

  private final KubernetesClient client;
  private final String name;

  BenchNamespace(KubernetesClient client, String name) {
    this.client = client;
    this.name = name;
    client.resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
  }

  String name() {
    return name;
  }

  @Override
  public void close() throws InterruptedException {
    client.namespaces().withName(name).delete();
    long deadline = System.nanoTime() + DELETE_TIMEOUT.toNanos();
    while (client.namespaces().withName(name).get() != null) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("namespace " + name + " still exists after " + DELETE_TIMEOUT);
      }
      Thread.sleep(1000);
    }
  }
}
