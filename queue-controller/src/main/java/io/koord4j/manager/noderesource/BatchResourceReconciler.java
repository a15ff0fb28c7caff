package io.koord4j.manager.noderesource;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.manager.support.InformerReconciler;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.quantity.ResourceQuantities;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's noderesource controller for batch resources: from each node's NodeMetric, its pods
 * and the {@code slo-controller-config} ConfigMap, writes {@code kubernetes.io/batch-cpu} and
 * {@code batch-memory} into the node's capacity and allocatable, less what third parties (YARN)
 * use, and removes them when colocation is off or the NodeMetric is stale. The room third parties
 * reserve beyond their use stays in the allocatable; koord-scheduler keeps batch pods out of it. It
 * reads every kind through the process's shared informers, so Nodes and Pods are not watched a
 * second time.
 */
public final class BatchResourceReconciler implements AutoCloseable {
  public static final String NAME = "batchresources";
  /** Colocation is opt-in, as in Koordinator: the controller runs only when this is true. */
  public static final String SWITCH = "KOORD4J_BATCH_RESOURCES";
  private static final Logger LOG = LoggerFactory.getLogger(BatchResourceReconciler.class);
  /** The pods' index by the node they are bound to. */
  private static final String BY_NODE = "nodeName";

  private final KubernetesClient client;
  private final Clock clock;
  private final SharedIndexInformer<NodeMetric> metrics;
  private final SharedIndexInformer<Pod> pods;
  private final SloConfigMap sloConfig;
  private final InformerReconciler<Node> nodes;
  private final Map<String, Instant> lastWritten = new ConcurrentHashMap<>();
  private final Map<String, CpuMemory> thirdPartyWritten = new ConcurrentHashMap<>();
  private final Map<String, CpuMemory> originWritten = new ConcurrentHashMap<>();

  BatchResourceReconciler(KubernetesClient client, SharedInformers informers, String configNamespace, Clock clock) {
    this.client = client;
    this.clock = clock;
    this.metrics = informers.of(NodeMetric.class);
    this.pods = informers.of(Pod.class);
    if (!pods.getIndexer().getIndexers().containsKey(BY_NODE)) {
      pods.addIndexers(Map.of(BY_NODE, pod -> List.of(String.valueOf(pod.getSpec().getNodeName()))));
    }
    this.sloConfig = new SloConfigMap(informers, configNamespace);
    this.nodes = new InformerReconciler<>(NAME, informers, Node.class, this::reconcile);
  }

  /** The controller, when {@value #SWITCH} is true and the cluster serves NodeMetrics; see {@link SloConfigMap}. */
  public static Optional<BatchResourceReconciler> forCluster(
      KubernetesClient client, SharedInformers informers, Map<String, String> env, Clock clock) {
    if (!Boolean.parseBoolean(env.get(SWITCH))) {
      LOG.info("batch resources are off; {}=true turns them on", SWITCH);
      return Optional.empty();
    }
    if (!client.supports(NodeMetric.class)) {
      LOG.info("NodeMetric is not installed; nodes get no batch resources until the manager restarts after it is");
      return Optional.empty();
    }
    return Optional.of(new BatchResourceReconciler(client, informers, SloConfigMap.namespace(env), clock));
  }

  /**
   * Reconciles every node, then each node whose NodeMetric or pods change, and every node when the
   * colocation ConfigMap changes.
   */
  public void start() {
    nodes.follow(metrics, metric -> nodes.trigger(metric.getMetadata().getName()));
    nodes.follow(pods, pod -> {
      if (pod.getSpec() != null && pod.getSpec().getNodeName() != null) {
        nodes.trigger(pod.getSpec().getNodeName());
      }
    });
    sloConfig.triggersAll(nodes);
    nodes.start();
  }

  @Override
  public void close() {
    nodes.close();
  }

  /** @return when to look at the node again though nothing changed: before its NodeMetric turns stale */
  Optional<Duration> reconcile(Node node) {
    String name = node.getMetadata().getName();
    ColocationStrategy strategy;
    try {
      strategy = config().strategyFor(
          node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels());
    } catch (IllegalArgumentException e) {
      LOG.warn("node {}: batch resources left as they are: {}", name, e.getMessage());
      return Optional.empty();
    }
    Optional<NodeMetric> metric = Optional.ofNullable(metrics.getStore().getByKey(name));
    Instant now = clock.instant();
    Optional<Instant> staleAt = metric.flatMap(m -> updateTime(m)).map(t -> t.plus(strategy.degradeTime()));
    if (!strategy.enable() || staleAt.isEmpty() || !now.isBefore(staleAt.get())) {
      reset(node, strategy.enable() ? "its NodeMetric is missing or older than " + strategy.degradeTime() : "colocation is off");
      return Optional.empty();
    }
    BatchResourceCalculator.BatchResources batch = BatchResourceCalculator.calculate(
        strategy,
        BatchResourceInputs.node(node, metric.get()),
        BatchResourceInputs.pods(
            new ArrayList<>(pods.getIndexer().byIndex(BY_NODE, name)), why -> LOG.warn("node {}: {}", name, why)),
        BatchResourceInputs.podUsages(metric.get()));
    CpuMemory thirdParty = BatchResourceCalculator.thirdPartyUse(name, node.getMetadata().getAnnotations());
    CpuMemory kube = batch.amount().minus(thirdParty).atLeastZero();
    // What a third party uses is never hidden by the diff threshold: Kubernetes would book it twice.
    // Nor is a move of the origin while third parties hold all of it: they size themselves by it.
    if (needsWrite(node, kube, strategy, now)
        || !thirdParty.equals(thirdPartyWritten.get(name))
        || moved(originWritten.get(name), batch.amount(), strategy.resourceDiffThreshold())) {
      write(client, node, batch.amount(), kube);
      lastWritten.put(name, now);
      thirdPartyWritten.put(name, thirdParty);
      originWritten.put(name, batch.amount());
      LOG.info("node {}: {}; {}; for pods {}m and {} bytes", name, batch.cpuMessage(), batch.memoryMessage(),
          kube.cpuMilli(), kube.memoryBytes());
    }
    Duration untilStale = Duration.between(now, staleAt.get());
    return Optional.of(untilStale.compareTo(strategy.updateTimeThreshold()) < 0 ? untilStale : strategy.updateTimeThreshold());
  }

  private ColocationConfig config() {
    return Optional.ofNullable(sloConfig.data().get(ColocationConfig.KEY))
        .map(ColocationConfig::parse)
        .orElse(ColocationConfig.DEFAULT);
  }

  private static Optional<Instant> updateTime(NodeMetric metric) {
    return metric.getStatus() == null || metric.getStatus().getUpdateTime() == null
        ? Optional.empty()
        : Optional.of(Instant.parse(metric.getStatus().getUpdateTime()));
  }

  /** When the node has none yet, they moved by more than the threshold, or it is time to refresh. */
  private boolean needsWrite(Node node, CpuMemory wanted, ColocationStrategy strategy, Instant now) {
    Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
    Quantity cpu = allocatable == null ? null : allocatable.get(WellKnown.BATCH_CPU);
    Quantity memory = allocatable == null ? null : allocatable.get(WellKnown.BATCH_MEMORY);
    if (cpu == null || memory == null) {
      return true;
    }
    Instant last = lastWritten.get(node.getMetadata().getName());
    return differs(written(cpu, WellKnown.BATCH_CPU), wanted.cpuMilli(), strategy.resourceDiffThreshold())
        || differs(written(memory, WellKnown.BATCH_MEMORY), wanted.memoryBytes(), strategy.resourceDiffThreshold())
        || last == null
        || !now.isBefore(last.plus(strategy.updateTimeThreshold()));
  }

  private static boolean moved(CpuMemory written, CpuMemory wanted, double threshold) {
    return written == null
        || differs(written.cpuMilli(), wanted.cpuMilli(), threshold)
        || differs(written.memoryBytes(), wanted.memoryBytes(), threshold);
  }

  /** The node's batch allocatable, as this controller wrote it. */
  private static long written(Quantity current, String resource) {
    return ResourceQuantities.amount(current, "status.allocatable[" + resource + "]").longValue();
  }

  private static boolean differs(long old, long wanted, double threshold) {
    return old == 0 ? wanted != 0 : Math.abs(wanted - old) > old * threshold;
  }

  private static void write(KubernetesClient client, Node node, CpuMemory origin, CpuMemory kube) {
    String name = node.getMetadata().getName();
    Map<String, String> originJson = Map.of(
        WellKnown.BATCH_CPU, Long.toString(origin.cpuMilli()), WellKnown.BATCH_MEMORY, Long.toString(origin.memoryBytes()));
    client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(
        Map.of("metadata", Map.of("annotations", Map.of(WellKnown.ORIGIN_EXTENDED_ALLOCATABLE, Serialization.asJson(Map.of("resources", originJson)))))));
    Map<String, String> resources = Map.of(
        WellKnown.BATCH_CPU, Long.toString(kube.cpuMilli()), WellKnown.BATCH_MEMORY, Long.toString(kube.memoryBytes()));
    patchStatus(client, name, resources);
  }

  private void reset(Node node, String why) {
    Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
    Map<String, Quantity> capacity = node.getStatus() == null ? null : node.getStatus().getCapacity();
    boolean has = (allocatable != null && (allocatable.containsKey(WellKnown.BATCH_CPU) || allocatable.containsKey(WellKnown.BATCH_MEMORY)))
        || (capacity != null && (capacity.containsKey(WellKnown.BATCH_CPU) || capacity.containsKey(WellKnown.BATCH_MEMORY)));
    if (!has) {
      return;
    }
    Map<String, String> removed = new HashMap<>();
    removed.put(WellKnown.BATCH_CPU, null);
    removed.put(WellKnown.BATCH_MEMORY, null);
    patchStatus(client, node.getMetadata().getName(), removed);
    lastWritten.remove(node.getMetadata().getName());
    thirdPartyWritten.remove(node.getMetadata().getName());
    originWritten.remove(node.getMetadata().getName());
    LOG.info("node {}: batch resources removed: {}", node.getMetadata().getName(), why);
  }

  /** A merge patch of both maps; null values remove the resource. */
  private static void patchStatus(KubernetesClient client, String name, Map<String, String> resources) {
    Map<String, Object> status = new HashMap<>();
    status.put("capacity", resources);
    status.put("allocatable", resources);
    client.nodes().withName(name).subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("status", status)));
  }
}
