package io.koord4j.scheduler.cache;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.device.AllocationOutcome;
import io.koord4j.device.GpuAllocation;
import io.koord4j.device.GpuAllocator;
import io.koord4j.device.GpuRequest;
import io.koord4j.device.InvalidDeviceSpecException;
import io.koord4j.device.NodeGpuInventory;
import io.koord4j.device.NodeGpuUsage;
import io.koord4j.device.kube.PodGpus;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.framework.NodeGpus;
import io.koord4j.scheduler.framework.NodeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Nodes and the non-terminal pods of the cluster, fed by informers, with the requests of bound and
 * assumed pods summed per node.
 *
 * <p>A pod is <em>assumed</em> on a node from Reserve until the informer shows it bound: it
 * counts on the node at once, so the next cycle does not place another pod into the same room;
 * {@link #forget} releases it if binding fails.
 *
 * <p>Pods are also counted per group key (e.g. their gang), bound or not, for plugins that need
 * to know how many members a group has and how many are placed.
 *
 * <p>Nodes with a Device object also have their GPUs tracked by device: a bound pod holds what its
 * {@code device-allocated} annotation names, an assumed pod what {@link #reserveGpus} gave it.
 */
public final class SchedulerCache {

  /** @param gpus what the pod holds of its node's GPUs, null when none or not tracked */
  private record Entry(
      Pod pod, String nodeName, ResourceVector request, boolean assumed, String group, GpuAllocation gpus) {
    Entry withGpus(GpuAllocation held) {
      return new Entry(pod, nodeName, request, assumed, group, held);
    }
  }

  /** GPUs held by bound and assumed pods, in whole GPUs of core, against the healthy GPUs. */
  public record GpuTotals(double allocated, int healthy) {}

  private record Usage(ResourceVector requested, int pods) {
    static final Usage NONE = new Usage(ResourceVector.EMPTY, 0);

    Usage plus(ResourceVector request, int sign) {
      return new Usage(
          sign > 0 ? requested.add(request) : requested.subtract(request), pods + sign);
    }
  }

  private final Function<Pod, Optional<String>> groupOf;
  private final Map<String, NodeInfo> nodes = new HashMap<>();
  /**
   * Each node as the next cycle sees it, usage and GPUs included. Rebuilt only for the nodes that
   * changed since the last snapshot ({@code stale}), so that a cycle costs no allocation per node;
   * kept in a list (with each node's place in it) so that a snapshot is one array copy.
   */
  private final List<NodeInfo> views = new ArrayList<>();
  private final Map<String, Integer> viewIndex = new HashMap<>();
  private final Set<String> stale = new HashSet<>();
  /** The allocatable of all nodes, kept as nodes come and go rather than summed on each change. */
  private ResourceVector allocatableTotal = ResourceVector.EMPTY;
  private final Map<String, Usage> usage = new HashMap<>();
  private final Map<String, Entry> pods = new HashMap<>();
  private final Map<String, int[]> groupCounts = new HashMap<>();
  /**
   * Succeeded members by uid, with their group, and their number by group: a gang whose members
   * partly finished is still whole, so that the members created after them (a job's later or
   * replaced pods) are not held for ever below the gang's minimum.
   */
  private final Map<String, String> succeededMembers = new HashMap<>();
  private final Map<String, Integer> succeededByGroup = new HashMap<>();
  private final Map<String, Device> devices = new HashMap<>();
  private final Map<String, NodeGpus> gpus = new HashMap<>();

  /** @param groupOf the group key of a pod, if it belongs to one */
  public SchedulerCache(Function<Pod, Optional<String>> groupOf) {
    this.groupOf = groupOf;
  }

  public synchronized void upsertNode(Node node) {
    NodeInfo info = NodeInfo.of(node);
    NodeInfo old = nodes.put(info.name(), info);
    allocatableTotal =
        allocatableTotal.add(info.allocatable()).subtract(old == null ? ResourceVector.EMPTY : old.allocatable());
    stale.add(info.name());
    if (devices.containsKey(info.name()) && (old == null || !sameGpuLabels(old.node(), node))) {
      refreshGpus(info.name());
    }
  }

  /** A node's Device object, named after the node. */
  public synchronized void upsertDevice(Device device) {
    devices.put(device.getMetadata().getName(), device);
    refreshGpus(device.getMetadata().getName());
  }

  public synchronized void removeDevice(String nodeName) {
    devices.remove(nodeName);
    refreshGpus(nodeName);
  }

  public synchronized void removeNode(String name) {
    NodeInfo old = nodes.remove(name);
    if (old != null) {
      allocatableTotal = allocatableTotal.subtract(old.allocatable());
    }
    removeView(name);
    stale.remove(name);
  }

  /** Moves the last view into the removed one's place. */
  private void removeView(String name) {
    Integer index = viewIndex.remove(name);
    if (index == null) {
      return;
    }
    NodeInfo last = views.remove(views.size() - 1);
    if (index < views.size()) {
      views.set(index, last);
      viewIndex.put(last.name(), index);
    }
  }

  /** The allocatable of all nodes together. */
  public synchronized ResourceVector allocatableTotal() {
    return allocatableTotal;
  }

  /**
   * The informer's view of a pod. A terminal pod no longer holds resources; a succeeded one still
   * counts as a placed member of its group. An assumed pod keeps its node until the informer shows
   * it bound.
   */
  public synchronized void upsertPod(Pod pod) {
    String uid = pod.getMetadata().getUid();
    if (isTerminal(pod)) {
      removePod(uid);
      if ("Succeeded".equals(pod.getStatus().getPhase())) {
        groupOf.apply(pod).ifPresent(group -> succeeded(uid, group));
      }
      return;
    }
    Entry old = pods.get(uid);
    String bound = pod.getSpec().getNodeName();
    boolean stillAssumed = old != null && old.assumed() && (bound == null || bound.isEmpty());
    String nodeName = stillAssumed ? old.nodeName() : emptyToNull(bound);
    ResourceVector request = old != null ? old.request() : ResourceQuantities.requestOf(pod);
    GpuAllocation held = stillAssumed ? old.gpus() : gpusHeld(pod, nodeName, old);
    put(uid, new Entry(pod, nodeName, request, stillAssumed, groupOf.apply(pod).orElse(null), held));
  }

  public synchronized void removePod(String uid) {
    put(uid, null);
    String group = succeededMembers.remove(uid);
    if (group != null) {
      succeededByGroup.computeIfPresent(group, (g, n) -> n == 1 ? null : n - 1);
    }
  }

  private void succeeded(String uid, String group) {
    succeededMembers.put(uid, group);
    succeededByGroup.merge(group, 1, Integer::sum);
  }

  /** Counts the pod on the node from now on, before it is bound. */
  public synchronized void assume(Pod pod, String nodeName) {
    String uid = pod.getMetadata().getUid();
    Entry old = pods.get(uid);
    ResourceVector request = old != null ? old.request() : ResourceQuantities.requestOf(pod);
    put(uid, new Entry(pod, nodeName, request, true, groupOf.apply(pod).orElse(null), null));
  }

  /** Releases an assumed pod whose binding failed, GPUs included; it is pending again. */
  public synchronized void forget(String uid) {
    Entry old = pods.get(uid);
    if (old != null && old.assumed()) {
      put(uid, new Entry(old.pod(), null, old.request(), false, old.group(), null));
    }
  }

  /**
   * Allocates GPUs to a pod assumed on a node and records them, under the cache's lock so that two
   * reservations never take the same share of a GPU.
   *
   * @return empty when the node has no Device object, so its GPUs are not tracked by device
   * @throws IllegalStateException when the pod is not assumed
   */
  public synchronized Optional<AllocationOutcome> reserveGpus(String uid, GpuRequest request) {
    Entry entry = pods.get(uid);
    if (entry == null || !entry.assumed()) {
      throw new IllegalStateException("pod " + uid + " is not assumed on a node");
    }
    NodeGpus node = gpus.getOrDefault(entry.nodeName(), NodeGpus.NONE);
    if (!node.hasDevice()) {
      return Optional.empty();
    }
    if (node.inventory() == null) {
      return Optional.of(AllocationOutcome.rejected(node.deviceError()));
    }
    AllocationOutcome outcome = GpuAllocator.allocate(node.inventory(), node.usage(), request);
    outcome.allocation().ifPresent(allocation -> put(uid, entry.withGpus(allocation)));
    return Optional.of(outcome);
  }

  /** Gives back the GPUs {@link #reserveGpus} recorded for an assumed pod; idempotent. */
  public synchronized void releaseGpus(String uid) {
    Entry entry = pods.get(uid);
    if (entry != null && entry.assumed() && entry.gpus() != null) {
      put(uid, entry.withGpus(null));
    }
  }

  public synchronized GpuTotals gpuTotals() {
    double allocated = 0;
    int healthy = 0;
    for (NodeGpus node : gpus.values()) {
      if (node.inventory() != null) {
        healthy += node.inventory().healthyDevices().size();
        allocated +=
            node.inventory().devices().stream()
                .mapToInt(device -> node.usage().of(device.minor()).corePercent())
                .sum()
                / 100.0;
      }
    }
    return new GpuTotals(allocated, healthy);
  }

  /** The pod as last seen, if it is known and not finished. */
  public synchronized Optional<Pod> pod(String uid) {
    return Optional.ofNullable(pods.get(uid)).map(Entry::pod);
  }

  /** The node a pod is bound or assumed on, if any. */
  public synchronized Optional<String> nodeOf(String uid) {
    return Optional.ofNullable(pods.get(uid)).map(Entry::nodeName);
  }

  public synchronized boolean isAssumed(String uid) {
    Entry entry = pods.get(uid);
    return entry != null && entry.assumed();
  }

  /** Every node with the pods bound or assumed on it, for one scheduling cycle. */
  public synchronized List<NodeInfo> snapshot() {
    for (String name : stale) {
      NodeInfo node = nodes.get(name);
      if (node != null) {
        putView(withUsage(node));
      }
    }
    stale.clear();
    return new ArrayList<>(views);
  }

  private void putView(NodeInfo view) {
    Integer index = viewIndex.putIfAbsent(view.name(), views.size());
    if (index == null) {
      views.add(view);
    } else {
      views.set(index, view);
    }
  }

  /** One node with the pods bound or assumed on it, if the cache knows it. */
  public synchronized Optional<NodeInfo> node(String name) {
    return Optional.ofNullable(nodes.get(name)).map(this::withUsage);
  }

  private NodeInfo withUsage(NodeInfo node) {
    Usage used = usage.getOrDefault(node.name(), Usage.NONE);
    return node.withUsage(used.requested(), used.pods())
        .withGpus(gpus.getOrDefault(node.name(), NodeGpus.NONE));
  }

  /** Pods of the group known to the cluster and not failed. */
  public synchronized int groupMembers(String group) {
    return groupCounts.getOrDefault(group, new int[2])[0] + succeededByGroup.getOrDefault(group, 0);
  }

  /** Pods of the group bound or assumed on a node, or succeeded there. */
  public synchronized int groupPlaced(String group) {
    return groupCounts.getOrDefault(group, new int[2])[1] + succeededByGroup.getOrDefault(group, 0);
  }

  /** Replaces (or with null removes) a pod's entry, keeping node usage and group counts right. */
  private void put(String uid, Entry entry) {
    Entry old = entry == null ? pods.remove(uid) : pods.put(uid, entry);
    if (old != null) {
      count(old, -1);
    }
    if (entry != null) {
      count(entry, 1);
    }
  }

  private void count(Entry entry, int sign) {
    if (entry.nodeName() != null) {
      stale.add(entry.nodeName());
      usage.merge(
          entry.nodeName(),
          Usage.NONE.plus(entry.request(), sign),
          (a, b) -> a.plus(entry.request(), sign));
      if (entry.gpus() != null) {
        gpus.computeIfPresent(
            entry.nodeName(),
            (name, node) ->
                node.withUsage(
                    sign > 0 ? node.usage().reserve(entry.gpus()) : node.usage().release(entry.gpus())));
      }
    }
    if (entry.group() != null) {
      int[] counts = groupCounts.computeIfAbsent(entry.group(), g -> new int[2]);
      counts[0] += sign;
      counts[1] += entry.nodeName() != null ? sign : 0;
      if (counts[0] == 0) {
        groupCounts.remove(entry.group());
      }
    }
  }

  /**
   * What a pod bound (or about to be seen bound) on {@code nodeName} holds. An unchanged pod keeps
   * what it held; otherwise its annotation is read, its own earlier holding set aside.
   */
  private GpuAllocation gpusHeld(Pod pod, String nodeName, Entry old) {
    NodeGpus node = nodeName == null ? NodeGpus.NONE : gpus.getOrDefault(nodeName, NodeGpus.NONE);
    if (node.inventory() == null) {
      return null;
    }
    boolean sameNode = old != null && nodeName.equals(old.nodeName());
    if (sameNode && !old.assumed() && Objects.equals(allocatedOf(old.pod()), allocatedOf(pod))) {
      return old.gpus();
    }
    NodeGpuUsage others =
        sameNode && old.gpus() != null ? node.usage().release(old.gpus()) : node.usage();
    return PodGpus.held(pod, node.inventory(), others);
  }

  /**
   * Rebuilds a node's GPU inventory from its Device object and node labels, and what each pod on it
   * holds. A Device object that cannot be read is kept as an error for DeviceShare to report.
   */
  private void refreshGpus(String nodeName) {
    Device device = devices.get(nodeName);
    NodeGpus node = NodeGpus.NONE;
    if (device != null) {
      NodeInfo info = nodes.get(nodeName);
      Map<String, String> labels = info == null ? null : info.node().getMetadata().getLabels();
      try {
        node =
            new NodeGpus(
                NodeGpuInventory.fromDevice(device, labels == null ? Map.of() : labels),
                NodeGpuUsage.NONE,
                null);
      } catch (InvalidDeviceSpecException e) {
        node = new NodeGpus(null, NodeGpuUsage.NONE, e.getMessage());
      }
    }
    gpus.put(nodeName, node);
    stale.add(nodeName);
    for (Map.Entry<String, Entry> pod : pods.entrySet()) {
      Entry entry = pod.getValue();
      if (!nodeName.equals(entry.nodeName())) {
        continue;
      }
      GpuAllocation held =
          node.inventory() == null
              ? null
              : entry.assumed() ? entry.gpus() : PodGpus.held(entry.pod(), node.inventory(), node.usage());
      pod.setValue(entry.withGpus(held));
      if (held != null) {
        node = node.withUsage(node.usage().reserve(held));
        gpus.put(nodeName, node);
      }
    }
    if (!node.hasDevice()) {
      gpus.remove(nodeName);
    }
  }

  private static boolean sameGpuLabels(Node old, Node node) {
    return Objects.equals(label(old, WellKnown.GPU_MODEL), label(node, WellKnown.GPU_MODEL))
        && Objects.equals(
            label(old, WellKnown.GPU_PARTITION_POLICY), label(node, WellKnown.GPU_PARTITION_POLICY));
  }

  private static String label(Node node, String key) {
    Map<String, String> labels = node.getMetadata().getLabels();
    return labels == null ? null : labels.get(key);
  }

  private static String allocatedOf(Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(WellKnown.DEVICE_ALLOCATED);
  }

  static boolean isTerminal(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
