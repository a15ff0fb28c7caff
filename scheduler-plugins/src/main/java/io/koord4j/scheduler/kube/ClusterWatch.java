package io.koord4j.scheduler.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.probes.LoggedTask;
import io.koord4j.quota.InvalidQuotaTreeException;
import io.koord4j.quota.kube.ElasticQuotaSpecs;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.elasticquota.QuotaAccounts;
import io.koord4j.scheduler.plugins.loadaware.NodeLoad;
import io.koord4j.scheduler.plugins.loadaware.NodeLoads;
import io.koord4j.scheduler.queue.SchedulingQueue;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Informers on nodes, Devices, pods, PodGroups, ElasticQuotas and NodeMetrics, translated into
 * the cache, the quota accounts, the PodGroup map the gang resolver reads, the node loads, and the
 * queue. Quotas, PodGroups, nodes and Devices sync before pods, so every pod is charged and
 * counted against a complete picture. NodeMetrics are not waited for: a node without one is
 * scheduled as if load were unknown. A custom resource whose CRD is missing counts as having no
 * objects until the CRD is installed ({@link OptionalInformer}).
 */
public final class ClusterWatch implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterWatch.class);
  /** The node annotations the batch room third parties leave to pods is read from. */
  private static final List<String> THIRD_PARTY_ANNOTATIONS =
      List.of(WellKnown.THIRD_PARTY_ALLOCATIONS, WellKnown.ORIGIN_EXTENDED_ALLOCATABLE);

  private final KubernetesClient client;
  private final String schedulerName;
  private final SchedulerCache cache;
  private final QuotaAccounts quotas;
  private final SchedulingQueue queue;
  private final WaitingPods waitingPods;
  private final Map<String, PodGroup> podGroups;
  private final NodeLoads loads;
  private final Clock clock;
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private volatile OptionalInformer<ElasticQuota> quotaInformer;

  public ClusterWatch(
      KubernetesClient client, String schedulerName, ClusterState state, SchedulingQueue queue,
      WaitingPods waitingPods, Clock clock) {
    this.client = client;
    this.schedulerName = schedulerName;
    this.cache = state.cache();
    this.quotas = state.quotas();
    this.podGroups = state.podGroups();
    this.loads = state.loads();
    this.queue = queue;
    this.waitingPods = waitingPods;
    this.clock = clock;
  }

  /**
   * Starts the informers and returns once each has listed its objects, or found its CRD missing:
   * a missing CRD counts as no objects until it is installed.
   */
  public void start() {
    // Pods are listed alongside the rest but handled only once the rest is in: a handler added to
    // a started informer is first told of every pod listed so far.
    SharedIndexInformer<Pod> podInformer = client.pods().inAnyNamespace().runnableInformer(0);
    CompletableFuture<Void> podsListed = podInformer.start().toCompletableFuture();
    quotaInformer =
        OptionalInformer.start(client, ElasticQuota.class, handler(q -> quotasChanged()));
    OptionalInformer<PodGroup> groupInformer =
        OptionalInformer.start(
            client,
            PodGroup.class,
            new Handler<PodGroup>() {
              @Override
              void upsert(PodGroup old, PodGroup group) {
                podGroups.put(idOf(group.getMetadata()), group);
                queue.onEvent(ClusterEvent.POD_GROUP_CHANGED);
              }

              @Override
              void delete(PodGroup group) {
                podGroups.remove(idOf(group.getMetadata()));
              }
            });
    OptionalInformer<Device> deviceInformer =
        OptionalInformer.start(
            client,
            Device.class,
            announcing(
                ClusterEvent.DEVICE_CHANGED,
                cache::upsertDevice,
                device -> cache.removeDevice(device.getMetadata().getName())));
    // Not waited for: a node without a NodeMetric is scheduled as if its load were unknown.
    OptionalInformer<NodeMetric> metricInformer =
        OptionalInformer.start(
            client,
            NodeMetric.class,
            announcing(
                ClusterEvent.NODE_METRIC_CHANGED,
                this::putMetric,
                metric -> loads.removeMetric(metric.getMetadata().getName())));
    List.of(quotaInformer, groupInformer, deviceInformer, metricInformer)
        .forEach(optional -> informers.add(optional.informer()));
    informers.add(client.nodes().inform(new NodeHandler()));
    List.of(quotaInformer, groupInformer, deviceInformer)
        .forEach(optional -> optional.ready().join());
    quotasChanged();
    podsListed.join();
    podInformer.addEventHandler(new PodHandler());
    informers.add(podInformer);
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
  }

  private void quotasChanged() {
    if (quotaInformer == null || !quotaInformer.ready().isDone()) {
      return; // still listing; start() reads the complete list once it is there
    }
    List<ElasticQuota> all = quotaInformer.informer().getStore().list();
    Map<String, String> bindings = new HashMap<>();
    all.forEach(
        q -> ElasticQuotaSpecs.boundNamespaces(q).forEach(ns -> bindings.put(ns, q.getMetadata().getName())));
    try {
      quotas.setQuotas(ElasticQuotaSpecs.belowRoot(all), bindings);
      queue.onEvent(ClusterEvent.QUOTA_CHANGED);
    } catch (InvalidQuotaTreeException e) {
      LOG.warn("keeping the previous quota tree: {}", e.getMessage());
    }
  }

  private void putMetric(NodeMetric metric) {
    String node = metric.getMetadata().getName();
    try {
      NodeLoad.from(metric)
          .ifPresentOrElse(load -> loads.putMetric(node, load), () -> loads.removeMetric(node));
    } catch (IllegalArgumentException e) {
      LOG.warn("ignoring NodeMetric {}: {}", node, e.getMessage());
      loads.removeMetric(node);
    }
  }

  private final class NodeHandler extends Handler<Node> {
    @Override
    void upsert(Node old, Node node) {
      cache.upsertNode(node);
      // Status heartbeats leave allocatable alone; summing every node for each would be wasted.
      if (old == null || !Objects.equals(allocatable(old), allocatable(node))) {
        updateClusterTotal();
      }
      if (old == null) {
        queue.onEvent(ClusterEvent.NODE_ADDED);
      } else if (schedulingRelevantChange(old, node)) {
        queue.onEvent(ClusterEvent.NODE_UPDATED);
      }
    }

    @Override
    void delete(Node node) {
      cache.removeNode(node.getMetadata().getName());
      updateClusterTotal();
    }

    private void updateClusterTotal() {
      quotas.setClusterTotal(cache.allocatableTotal());
    }
  }

  /**
   * Node status heartbeats change nothing a filter reads; skipping them avoids useless retries. A
   * change of third parties' allocations does: it may free room a batch pod waits for.
   */
  static boolean schedulingRelevantChange(Node old, Node node) {
    return !Objects.equals(old.getMetadata().getLabels(), node.getMetadata().getLabels())
        || !Objects.equals(old.getSpec(), node.getSpec())
        || !Objects.equals(allocatable(old), allocatable(node))
        || THIRD_PARTY_ANNOTATIONS.stream()
            .anyMatch(key -> !Objects.equals(annotation(old, key), annotation(node, key)));
  }

  private static String annotation(Node node, String key) {
    Map<String, String> annotations = node.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }

  private static Map<String, io.fabric8.kubernetes.api.model.Quantity> allocatable(Node node) {
    return node.getStatus() == null ? null : node.getStatus().getAllocatable();
  }

  private final class PodHandler extends Handler<Pod> {
    @Override
    void upsert(Pod old, Pod pod) {
      String uid = pod.getMetadata().getUid();
      cache.upsertPod(pod);
      boolean terminal = isTerminal(pod);
      if (terminal) {
        quotas.podGone(uid);
        loads.unassign(uid);
        queue.delete(uid);
        if (old != null && !isTerminal(old) && isBound(old)) {
          queue.onEvent(ClusterEvent.ASSIGNED_POD_DELETED);
        }
        return;
      }
      quotas.podSeen(pod);
      if (isBound(pod)) {
        loads.assign(pod, pod.getSpec().getNodeName(), scheduledAt(pod));
      }
      if (isOurs(pod) && !isBound(pod) && pod.getMetadata().getDeletionTimestamp() == null) {
        // An assumed pod is being bound; a late pending update must not queue it again.
        if (!cache.isAssumed(uid)) {
          queue.add(pod);
        }
      } else {
        queue.delete(uid);
      }
      if (old == null) {
        queue.onEvent(ClusterEvent.POD_ADDED);
      }
    }

    @Override
    void delete(Pod pod) {
      String uid = pod.getMetadata().getUid();
      queue.delete(uid);
      // A deleted pod held at Permit would keep its node's room until its gang times out.
      waitingPods.reject(uid, "ClusterWatch", "the pod was deleted");
      cache.removePod(uid);
      quotas.podGone(uid);
      loads.unassign(uid);
      if (isBound(pod) && !isTerminal(pod)) {
        queue.onEvent(ClusterEvent.ASSIGNED_POD_DELETED);
      }
    }

    private boolean isOurs(Pod pod) {
      return schedulerName.equals(pod.getSpec().getSchedulerName());
    }
  }

  /** When the pod was bound, as its PodScheduled condition says; now if it does not say. */
  private Instant scheduledAt(Pod pod) {
    return pod.getStatus() == null
        ? clock.instant()
        : pod.getStatus().getConditions().stream()
            .filter(c -> "PodScheduled".equals(c.getType()) && "True".equals(c.getStatus()))
            .map(c -> c.getLastTransitionTime())
            .filter(Objects::nonNull)
            .map(Instant::parse)
            .findFirst()
            .orElseGet(clock::instant);
  }

  private static boolean isBound(Pod pod) {
    String node = pod.getSpec().getNodeName();
    return node != null && !node.isEmpty();
  }

  private static boolean isTerminal(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static String idOf(io.fabric8.kubernetes.api.model.ObjectMeta meta) {
    return meta.getNamespace() + "/" + meta.getName();
  }

  /** Applies each added or changed object and each removed one, then tells the queue {@code event}. */
  private <T> Handler<T> announcing(ClusterEvent event, Consumer<T> upsert, Consumer<T> remove) {
    return new Handler<>() {
      @Override
      void upsert(T old, T object) {
        upsert.accept(object);
        queue.onEvent(event);
      }

      @Override
      void delete(T object) {
        remove.accept(object);
        queue.onEvent(event);
      }
    };
  }

  private static <T> Handler<T> handler(Consumer<T> onAnyChange) {
    return new Handler<>() {
      @Override
      void upsert(T old, T object) {
        onAnyChange.accept(object);
      }

      @Override
      void delete(T object) {
        onAnyChange.accept(object);
      }
    };
  }

  /** Adds and updates in one method; a handler failure is logged, never kills the informer. */
  private abstract static class Handler<T> implements ResourceEventHandler<T> {
    abstract void upsert(T old, T object);

    abstract void delete(T object);

    @Override
    public void onAdd(T object) {
      guarded(() -> upsert(null, object));
    }

    @Override
    public void onUpdate(T old, T object) {
      guarded(() -> upsert(old, object));
    }

    @Override
    public void onDelete(T object, boolean finalStateUnknown) {
      guarded(() -> delete(object));
    }

    private static void guarded(Runnable action) {
      LoggedTask.of(LOG, "informer event handling failed", action).run();
    }
  }
}
