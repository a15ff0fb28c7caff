package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.probes.NativeTlsClientFactory;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.koord4j.scheduler.KoordScheduler;
import io.koord4j.scheduler.kube.ApiBinder;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The binding ceiling of benchmark B4: a process that makes no decision at all. It watches the
 * unbound pods of one namespace and binds each, in arrival order, to the next node of the pool
 * round-robin, with koord-scheduler's client, binder and number of binding threads. What it
 * reaches is what the API server takes in bindings; a scheduler can only come close to it.
 *
 * <p>Arguments: the namespace and the pool's label value ({@link BenchNodes#POOL_KEY}).
 * Connects with {@code KUBECONFIG}; runs until it is stopped.
 */
public final class BindingCeiling {
  private BindingCeiling() {}

  public static void main(String[] args) throws InterruptedException {
    String namespace = args[0];
    String pool = args[1];
    KubernetesClient client = NativeTlsClientFactory.client();
    List<String> nodes =
        client.nodes().withLabel(BenchNodes.POOL_KEY, pool).list().getItems().stream()
            .map(node -> node.getMetadata().getName())
            .sorted()
            .toList();
    ApiBinder binder = new ApiBinder(client);
    ExecutorService binding = Executors.newFixedThreadPool(KoordScheduler.BINDING_THREADS);
    AtomicLong next = new AtomicLong();
    client
        .pods()
        .inNamespace(namespace)
        .withField("spec.nodeName", "")
        .inform(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(Pod pod) {
                String node = nodes.get((int) (next.getAndIncrement() % nodes.size()));
                binding.execute(() -> binder.bind(pod, node));
              }

              @Override
              public void onUpdate(Pod old, Pod pod) {}

              @Override
              public void onDelete(Pod pod, boolean finalStateUnknown) {}
            });
    System.out.println("binding the pods of " + namespace + " to " + nodes.size() + " nodes");
    new CountDownLatch(1).await();
  }
}
