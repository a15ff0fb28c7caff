package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A namespace for one benchmark block; {@link #close} deletes its pods and then the namespace,
 * and waits until both are gone, so that the next block starts on empty nodes. The pods are
 * deleted by many parallel calls with no grace period: the namespace controller alone deletes
 * them one at a time, which takes many minutes for thousands of pods.
 */
final class BenchNamespace implements AutoCloseable {
  private static final Duration DELETE_TIMEOUT = Duration.ofMinutes(30);
  private static final int DELETE_THREADS = 16;

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
    ExecutorService deleters = Executors.newFixedThreadPool(DELETE_THREADS);
    for (Pod pod : client.pods().inNamespace(name).list().getItems()) {
      deleters.execute(
          () -> client.pods().inNamespace(name).withName(pod.getMetadata().getName()).withGracePeriod(0).delete());
    }
    deleters.shutdown();
    deleters.awaitTermination(DELETE_TIMEOUT.toMinutes(), TimeUnit.MINUTES);
    client.namespaces().withName(name).delete();
    long deadline = System.nanoTime() + DELETE_TIMEOUT.toNanos();
    while (client.namespaces().withName(name).get() != null) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("namespace " + name + " still exists after " + DELETE_TIMEOUT);
      }
      Thread.sleep(1000);
    }
  }

  /**
   * Waits until no namespace is being deleted: a namespace left by an earlier run with thousands of
   * jobs keeps the API server and etcd busy for minutes, which the next run would measure beside.
   */
  static void awaitNoneTerminating(KubernetesClient client) throws InterruptedException {
    long deadline = System.nanoTime() + DELETE_TIMEOUT.toNanos();
    List<String> terminating;
    while (!(terminating = terminating(client)).isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "namespaces still being deleted after " + DELETE_TIMEOUT + ": " + terminating);
      }
      System.out.println("waiting until namespaces " + terminating + " are deleted");
      Thread.sleep(10_000);
    }
  }

  private static List<String> terminating(KubernetesClient client) {
    return client.namespaces().list().getItems().stream()
        .filter(namespace -> "Terminating".equals(namespace.getStatus().getPhase()))
        .map(namespace -> namespace.getMetadata().getName())
        .toList();
  }
}
