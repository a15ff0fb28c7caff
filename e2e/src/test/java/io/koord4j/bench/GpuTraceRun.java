package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import io.koord4j.device.DeviceAllocatedCodec;
import io.koord4j.device.NodeGpuInventory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** One scheduler's block of benchmark B5: the trace submitted item by item, then measured. */
final class GpuTraceRun {

  /** How a placed pod's GPUs are known. */
  enum Minors {
    LOWEST_FREE,
    BEST,
    ANNOTATED
  }

  /** A pod of a placed item. {@code annotation} is its device-allocated annotation, if any. */
  record Placed(String pod, String node, int gpus, long boundNanos, String annotation) {}

  /**
   * What a block measured.
   *
   * @param gpusAtFirst8GpuFailure empty when no 8-GPU item failed before the trace ended
   */
  record Result(
      List<Placed> placed,
      Map<String, NodeGpuInventory> nodes,
      OptionalInt gpusAtFirst8GpuFailure,
      int freeNodesAtHalf,
      int placedItems,
      int failedItems) {

    long annotatedPods() {
      return placed.stream().filter(p -> p.annotation() != null).count();
    }

    /** Multi-GPU pods whose GPUs form one partition, and all multi-GPU pods; empty if none known. */
    Optional<double[]> insidePartition(Minors rule) {
      int inside = 0;
      int all = 0;
      Map<String, List<Placed>> byNode = placed.stream().collect(Collectors.groupingBy(Placed::node));
      for (var entry : byNode.entrySet()) {
        NodeGpuInventory node = nodes.get(entry.getKey());
        List<Placed> inOrder = entry.getValue().stream().sorted(Comparator.comparingLong(Placed::boundNanos)).toList();
        List<List<Integer>> minors = minors(rule, node, inOrder);
        for (int i = 0; i < inOrder.size(); i++) {
          if (inOrder.get(i).gpus() > 1 && minors.get(i) != null) {
            all++;
            inside += GpuMinors.isOnePartition(node, minors.get(i)) ? 1 : 0;
          }
        }
      }
      return all == 0 ? Optional.empty() : Optional.of(new double[] {inside, all});
    }

    private static List<List<Integer>> minors(Minors rule, NodeGpuInventory node, List<Placed> inOrder) {
      List<Integer> counts = inOrder.stream().map(Placed::gpus).toList();
      return switch (rule) {
        case LOWEST_FREE -> GpuMinors.lowestFree(node, counts);
        case BEST -> GpuMinors.best(node, counts);
        case ANNOTATED -> inOrder.stream()
            .map(p -> p.annotation() == null ? null : DeviceAllocatedCodec.parse(p.pod(), p.annotation(), node).minors())
            .toList();
      };
    }
  }

  private static final long POLL_MILLIS = 200;

  private final KubernetesClient client;
  private final BenchNodes pool;
  private final List<GpuTrace.Item> trace;
  private final Map<String, NodeGpuInventory> nodes;

  GpuTraceRun(KubernetesClient client, BenchNodes pool, List<GpuTrace.Item> trace, Map<String, NodeGpuInventory> nodes) {
    this.client = client;
    this.pool = pool;
    this.trace = trace;
    this.nodes = nodes;
  }

  Result run(String label, String name, SchedulerProcess.Starter starter) throws Exception {
    try (BenchNamespace namespace = new BenchNamespace(client, name);
        BindTimes binds = new BindTimes(client, name);
        SchedulerProcess scheduler = starter.start(name)) {
      int capacity = nodes.size() * GpuPlacementBenchmark.GPUS_PER_NODE;
      Map<String, Integer> placedGpus = new LinkedHashMap<>();
      int requested = 0;
      int freeNodesAtHalf = -1;
      int failed = 0;
      int placedItems = 0;
      OptionalInt gpusAtFailure = OptionalInt.empty();
      for (GpuTrace.Item item : trace) {
        List<String> pods = submit(name, item);
        if (awaitPlaced(name, pods, binds, scheduler)) {
          pods.forEach(pod -> placedGpus.put(pod, item.gpusPerPod()));
          placedItems++;
        } else {
          failed++;
          pods.forEach(pod -> client.pods().inNamespace(name).withName(pod).withGracePeriod(0).delete());
          if (item.gpusPerPod() == GpuPlacementBenchmark.GPUS_PER_NODE) {
            gpusAtFailure = OptionalInt.of(placedGpus.values().stream().mapToInt(Integer::intValue).sum());
            GpuPlacementBenchmark.log(label + ": first 8-GPU failure at " + item);
            break;
          }
        }
        requested += item.gpus();
        if (freeNodesAtHalf < 0 && 2 * requested >= capacity) {
          freeNodesAtHalf = nodes.size() - usedNodes(placedGpus.keySet(), binds);
        }
      }
      GpuPlacementBenchmark.log(label + ": " + placedItems + " items placed, " + failed + " failed");
      return new Result(
          placed(name, placedGpus, binds), nodes, gpusAtFailure, freeNodesAtHalf, placedItems, failed);
    }
  }

  private List<String> submit(String namespace, GpuTrace.Item item) {
    List<String> names = IntStream.range(0, item.pods()).mapToObj(m -> item.name() + "-" + m).toList();
    names.forEach(podName -> client.resource(pod(namespace, podName, item)).create());
    return names;
  }

  /**
   * Whether every pod of the item got bound; false once one has been reported unschedulable for
   * a while, or the item's time is up.
   */
  private boolean awaitPlaced(String namespace, List<String> pods, BindTimes binds, SchedulerProcess scheduler)
      throws InterruptedException {
    long start = System.nanoTime();
    Map<String, Long> unschedulableSince = new HashMap<>();
    while (!binds.bindings().keySet().containsAll(pods)) {
      scheduler.checkAlive();
      long now = System.nanoTime();
      if (now - start > GpuPlacementBenchmark.ITEM_TIMEOUT_SECONDS * 1_000_000_000L) {
        return false;
      }
      for (String podName : pods) {
        if (!binds.bindings().containsKey(podName) && isUnschedulable(namespace, podName)) {
          unschedulableSince.putIfAbsent(podName, now);
        } else {
          unschedulableSince.remove(podName);
        }
      }
      if (unschedulableSince.values().stream()
          .anyMatch(since -> now - since > GpuPlacementBenchmark.UNSCHEDULABLE_SECONDS * 1_000_000_000L)) {
        return false;
      }
      Thread.sleep(POLL_MILLIS);
    }
    return true;
  }

  private boolean isUnschedulable(String namespace, String podName) {
    Pod pod = client.pods().inNamespace(namespace).withName(podName).get();
    return pod != null
        && pod.getStatus() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "PodScheduled".equals(c.getType()) && "Unschedulable".equals(c.getReason()));
  }

  private Pod pod(String namespace, String podName, GpuTrace.Item item) {
    Map<String, Quantity> resources =
        Map.of(
            "cpu", new Quantity("1"),
            "memory", new Quantity("4Gi"),
            WellKnown.NVIDIA_GPU, new Quantity(Integer.toString(item.gpusPerPod())));
    PodBuilder builder =
        BenchPods.pod(
            namespace,
            podName,
            resources,
            Map.of(WellKnown.NVIDIA_GPU, resources.get(WellKnown.NVIDIA_GPU)));
    if (item.isGang()) {
      builder
          .editMetadata()
          .addToAnnotations(
              Map.of(
                  WellKnown.GANG_NAME, item.name(),
                  WellKnown.GANG_MIN_AVAILABLE, Integer.toString(item.pods()),
                  WellKnown.GANG_WAITING_TIME, "10s"))
          .endMetadata();
    }
    Pod pod = builder.build();
    pool.placeOnPool(pod.getSpec());
    return pod;
  }

  private static int usedNodes(Collection<String> pods, BindTimes binds) {
    return (int) pods.stream().map(pod -> binds.bindings().get(pod).nodeName()).distinct().count();
  }

  /** The placed pods with their nodes, bind times and device-allocated annotations. */
  private List<Placed> placed(String namespace, Map<String, Integer> placedGpus, BindTimes binds) {
    Map<String, String> annotations = new HashMap<>();
    for (Pod pod : client.pods().inNamespace(namespace).list().getItems()) {
      Map<String, String> podAnnotations = pod.getMetadata().getAnnotations();
      if (podAnnotations != null && podAnnotations.containsKey(WellKnown.DEVICE_ALLOCATED)) {
        annotations.put(pod.getMetadata().getName(), podAnnotations.get(WellKnown.DEVICE_ALLOCATED));
      }
    }
    List<Placed> placed = new ArrayList<>();
    placedGpus.forEach(
        (pod, gpus) -> {
          BindTimes.Binding binding = binds.bindings().get(pod);
          placed.add(new Placed(pod, binding.nodeName(), gpus, binding.nanos(), annotations.get(pod)));
        });
    return placed;
  }
}
