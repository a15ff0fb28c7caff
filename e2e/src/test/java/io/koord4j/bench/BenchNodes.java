package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * A pool of KWOK nodes that only a benchmark's pods use: the nodes carry a label and a NoSchedule
 * taint with the pool's unique name, and {@link #placeOnPool} gives a pod the matching node
 * selector and toleration. Other tests on the shared cluster neither land here nor see their pods
 * disturbed. {@link #close} deletes the nodes.
 */
final class BenchNodes implements AutoCloseable {
  static final String POOL_KEY = "koord4j.io/bench-pool";

  private final KubernetesClient client;
  private final String pool;

  BenchNodes(KubernetesClient client, String pool) {
    this.client = client;
    this.pool = pool;
  }

  /**
   * Creates {@code count} nodes named {@code <pool>-<i>} with this capacity and extra labels,
   * {@code threads} creates at a time, and waits until all are Ready.
   */
  List<String> create(int count, Map<String, String> capacity, Map<String, String> labels, int threads)
      throws InterruptedException {
    return grow(0, count, capacity, labels, threads);
  }

  /**
   * Adds nodes {@code <pool>-<from>} to {@code <pool>-<count - 1>} to a pool of {@code from}
   * nodes, as {@link #create} does.
   */
  List<String> grow(int from, int count, Map<String, String> capacity, Map<String, String> labels, int threads)
      throws InterruptedException {
    List<String> names = IntStream.range(from, count).mapToObj(i -> pool + "-" + i).toList();
    ExecutorService creators = Executors.newFixedThreadPool(threads);
    names.forEach(name -> creators.execute(() -> client.resource(node(name, capacity, labels)).create()));
    creators.shutdown();
    if (!creators.awaitTermination(10, TimeUnit.MINUTES)) {
      throw new IllegalStateException("creating " + count + " nodes took over 10 minutes");
    }
    awaitReady(count, Duration.ofMinutes(5));
    return names;
  }

  /** Lets the pod go only to this pool. */
  void placeOnPool(PodSpec spec) {
    Map<String, String> selector = spec.getNodeSelector() == null ? new HashMap<>() : new HashMap<>(spec.getNodeSelector());
    selector.put(POOL_KEY, pool);
    spec.setNodeSelector(selector);
    spec.getTolerations()
        .add(new TolerationBuilder().withKey(POOL_KEY).withOperator("Equal").withValue(pool).withEffect("NoSchedule").build());
  }

  @Override
  public void close() {
    client.nodes().withLabel(POOL_KEY, pool).withGracePeriod(0).delete();
  }

  private Node node(String name, Map<String, String> capacity, Map<String, String> labels) {
    Map<String, Quantity> resources = new HashMap<>();
    capacity.forEach((resource, amount) -> resources.put(resource, new Quantity(amount)));
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .addToAnnotations("kwok.x-k8s.io/node", "fake")
        .addToLabels(labels)
        .addToLabels(Map.of("kubernetes.io/hostname", name, "type", "kwok", POOL_KEY, pool))
        .endMetadata()
        .withNewSpec()
        .addNewTaint()
        .withKey(POOL_KEY)
        .withValue(pool)
        .withEffect("NoSchedule")
        .endTaint()
        .endSpec()
        .withNewStatus()
        .withAllocatable(resources)
        .withCapacity(resources)
        .endStatus()
        .build();
  }

  private void awaitReady(int count, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (readyNodes() < count) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "only " + readyNodes() + " of " + count + " nodes of pool " + pool + " became Ready in " + timeout);
      }
      Thread.sleep(1000);
    }
  }

  private long readyNodes() {
    return client.nodes().withLabel(POOL_KEY, pool).list().getItems().stream()
        .filter(
            node ->
                node.getStatus().getConditions().stream()
                    .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .count();
  }
}
