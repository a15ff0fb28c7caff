package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches the pods of one namespace and records, by pod name, when this process first saw each
 * bound ({@code System.nanoTime()}) and to which node. Watch delivery delay is the same for every
 * scheduler measured.
 */
final class BindTimes implements AutoCloseable {

  /** When a pod was seen bound, and where. */
  record Binding(long nanos, String nodeName) {}

  private final Map<String, Binding> bindings = new ConcurrentHashMap<>();
  private final SharedIndexInformer<Pod> informer;

  BindTimes(KubernetesClient client, String namespace) {
    informer =
        client
            .pods()
            .inNamespace(namespace)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Pod pod) {
                    seen(pod);
                  }

                  @Override
                  public void onUpdate(Pod old, Pod pod) {
                    seen(pod);
                  }

                  @Override
                  public void onDelete(Pod pod, boolean finalStateUnknown) {}
                });
  }

  private void seen(Pod pod) {
    String node = pod.getSpec().getNodeName();
    if (node != null && !node.isEmpty()) {
      bindings.putIfAbsent(pod.getMetadata().getName(), new Binding(System.nanoTime(), node));
    }
  }

  Map<String, Binding> bindings() {
    return bindings;
  }

  /** Waits until {@code count} pods are bound; false if the timeout passes first. */
  boolean await(int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (bindings.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    return bindings.size() >= count;
  }

  @Override
  public void close() {
    informer.close();
  }
}
