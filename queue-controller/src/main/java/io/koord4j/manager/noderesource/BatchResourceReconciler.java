package io.koord4j.manager.noderesource;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.koord4j.api.WellKnown;
import io.koord4j.api.slo.NodeMetric;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's noderesource controller for batch resources: from each node's NodeMetric, its pods
 * and the {@code slo-controller-config} ConfigMap, writes {@code kubernetes.io/batch-cpu} and
 * {@code batch-memory} into the node's capacity and allocatable, less what third parties (YARN)
 * hold, and removes them when colocation is off or the NodeMetric is stale.
 */
public final class BatchResourceReconciler implements Reconciler<Node> {
  public static final String NAME = "batchresources";
  /** Colocation is opt-in, as in Koordinator: the controller runs only when this is true. */
  public static final String SWITCH = "KOORD4J_BATCH_RESOURCES";
  /** What batch resources the node has before third parties take their share. */
  public static final String ORIGIN_ANNOTATION = "node.koordinator.sh/originExtendedAllocatable";
  private static final Logger LOG = LoggerFactory.getLogger(BatchResourceReconciler.class);

  private final String configNamespace;
  private final Clock clock;
  private final Map<String, Instant> lastWritten = new ConcurrentHashMap<>();
  private final Map<String, CpuMemory> thirdPartyWritten = new ConcurrentHashMap<>();

  BatchResourceReconciler(String configNamespace, Clock clock) {
    this.configNamespace = configNamespace;
    this.clock = clock;
  }

  /** The controller, when {@value #SWITCH} is true and the cluster serves NodeMetrics; see {@link SloConfigMap}. */
  public static Optional<BatchResourceReconciler> forCluster(KubernetesClient client, Map<String, String> env, Clock clock) {
    if (!Boolean.parseBoolean(env.get(SWITCH))) {
      LOG.info("batch resources are off; {}=true turns them on", SWITCH);
      return Optional.empty();
    }
    if (!client.supports(NodeMetric.class)) {
      LOG.info("NodeMetric is not installed; nodes get no batch resources until the manager restarts after it is");
      return Optional.empty();
    }
    return Optional.of(new BatchResourceReconciler(SloConfigMap.namespace(env), clock));
  }

  @Override
  public List<EventSource<?, Node>> prepareEventSources(EventSourceContext<Node> context) {
    return List.of(
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(NodeMetric.class, Node.class)
                .withSecondaryToPrimaryMapper(metric -> Set.of(new ResourceID(metric.getMetadata().getName())))
                .build(),
            context),
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Pod.class, Node.class)
                .withWatchAllNamespaces()
                .withSecondaryToPrimaryMapper(pod -> pod.getSpec().getNodeName() == null
                    ? Set.of() : Set.of(new ResourceID(pod.getSpec().getNodeName())))
                .build(),
            context),
        SloConfigMap.informer(Node.class, configNamespace, context));
  }

  @Override
  public UpdateControl<Node> reconcile(Node node, Context<Node> context) {
    KubernetesClient client = context.getClient();
    String name = node.getMetadata().getName();
    ColocationStrategy strategy;
    try {
      strategy = config(context).strategyFor(
          node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels());
    } catch (IllegalArgumentException e) {
      LOG.warn("node {}: batch resources left as they are: {}", name, e.getMessage());
      return UpdateControl.noUpdate();
    }
    Optional<NodeMetric> metric = context.getSecondaryResource(NodeMetric.class);
    Instant now = clock.instant();
    Optional<Instant> staleAt = metric.flatMap(m -> updateTime(m)).map(t -> t.plus(strategy.degradeTime()));
    if (!strategy.enable() || staleAt.isEmpty() || !now.isBefore(staleAt.get())) {
      reset(client, node, strategy.enable() ? "its NodeMetric is missing or older than " + strategy.degradeTime() : "colocation is off");
      return UpdateControl.noUpdate();
    }
    BatchResourceCalculator.BatchResources batch = BatchResourceCalculator.calculate(
        strategy,
        BatchResourceInputs.node(node, metric.get()),
        BatchResourceInputs.pods(new ArrayList<>(context.getSecondaryResources(Pod.class))),
        BatchResourceInputs.podUsages(metric.get()));
    CpuMemory thirdParty = ThirdPartyAllocations.batch(name, node.getMetadata().getAnnotations());
    CpuMemory kube = batch.amount().minus(thirdParty).atLeastZero();
    if (needsWrite(node, kube, strategy, now) || !thirdParty.equals(thirdPartyWritten.get(name))) {
      write(client, node, batch.amount(), kube);
      lastWritten.put(name, now);
      // What a third party holds is never hidden by the diff threshold: Kubernetes would book it twice.
      thirdPartyWritten.put(name, thirdParty);
      LOG.info("node {}: {}; {}; for pods {}m and {} bytes", name, batch.cpuMessage(), batch.memoryMessage(),
          kube.cpuMilli(), kube.memoryBytes());
    }
    Duration untilStale = Duration.between(now, staleAt.get());
    return UpdateControl.<Node>noUpdate().rescheduleAfter(
        untilStale.compareTo(strategy.updateTimeThreshold()) < 0 ? untilStale : strategy.updateTimeThreshold());
  }

  private static ColocationConfig config(Context<Node> context) {
    String json = SloConfigMap.data(context).get(ColocationConfig.KEY);
    return json == null ? ColocationConfig.DEFAULT : ColocationConfig.parse(json);
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
    return differs(cpu, wanted.cpuMilli(), strategy.resourceDiffThreshold())
        || differs(memory, wanted.memoryBytes(), strategy.resourceDiffThreshold())
        || last == null
        || !now.isBefore(last.plus(strategy.updateTimeThreshold()));
  }

  private static boolean differs(Quantity current, long wanted, double threshold) {
    long old = Quantity.getAmountInBytes(current).longValue();
    return old == 0 ? wanted != 0 : Math.abs(wanted - old) > old * threshold;
  }

  private static void write(KubernetesClient client, Node node, CpuMemory origin, CpuMemory kube) {
    String name = node.getMetadata().getName();
    Map<String, String> originJson = Map.of(
        WellKnown.BATCH_CPU, Long.toString(origin.cpuMilli()), WellKnown.BATCH_MEMORY, Long.toString(origin.memoryBytes()));
    client.nodes().withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(
        Map.of("metadata", Map.of("annotations", Map.of(ORIGIN_ANNOTATION, Serialization.asJson(Map.of("resources", originJson)))))));
    Map<String, String> resources = Map.of(
        WellKnown.BATCH_CPU, Long.toString(kube.cpuMilli()), WellKnown.BATCH_MEMORY, Long.toString(kube.memoryBytes()));
    patchStatus(client, name, resources);
  }

  private void reset(KubernetesClient client, Node node, String why) {
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
