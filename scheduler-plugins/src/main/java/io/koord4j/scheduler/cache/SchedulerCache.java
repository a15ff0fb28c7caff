package io.koord4j.scheduler.cache;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.quota.ResourceVector;
import io.koord4j.quota.kube.ResourceQuantities;
import io.koord4j.scheduler.framework.NodeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 */
public final class SchedulerCache {

  private record Entry(Pod pod, String nodeName, ResourceVector request, boolean assumed, String group) {}

  private record Usage(ResourceVector requested, int pods) {
    static final Usage NONE = new Usage(ResourceVector.EMPTY, 0);

    Usage plus(ResourceVector request, int sign) {
      return new Usage(
          sign > 0 ? requested.add(request) : requested.subtract(request), pods + sign);
    }
  }

  private final Function<Pod, Optional<String>> groupOf;
  private final Map<String, NodeInfo> nodes = new HashMap<>();
  private final Map<String, Usage> usage = new HashMap<>();
  private final Map<String, Entry> pods = new HashMap<>();
  private final Map<String, int[]> groupCounts = new HashMap<>();

  /** @param groupOf the group key of a pod, if it belongs to one */
  public SchedulerCache(Function<Pod, Optional<String>> groupOf) {
    this.groupOf = groupOf;
  }

  public synchronized void upsertNode(Node node) {
    NodeInfo info = NodeInfo.of(node);
    nodes.put(info.name(), info);
  }

  public synchronized void removeNode(String name) {
    nodes.remove(name);
  }

  /**
   * The informer's view of a pod. A terminal pod no longer holds resources. An assumed pod keeps
   * its node until the informer shows it bound.
   */
  public synchronized void upsertPod(Pod pod) {
    String uid = pod.getMetadata().getUid();
    if (isTerminal(pod)) {
      removePod(uid);
      return;
    }
    Entry old = pods.get(uid);
    String bound = pod.getSpec().getNodeName();
    boolean stillAssumed = old != null && old.assumed() && (bound == null || bound.isEmpty());
    String nodeName = stillAssumed ? old.nodeName() : emptyToNull(bound);
    ResourceVector request = old != null ? old.request() : ResourceQuantities.requestOf(pod);
    put(uid, new Entry(pod, nodeName, request, stillAssumed, groupOf.apply(pod).orElse(null)));
  }

  public synchronized void removePod(String uid) {
    put(uid, null);
  }

  /** Counts the pod on the node from now on, before it is bound. */
  public synchronized void assume(Pod pod, String nodeName) {
    String uid = pod.getMetadata().getUid();
    Entry old = pods.get(uid);
    ResourceVector request = old != null ? old.request() : ResourceQuantities.requestOf(pod);
    put(uid, new Entry(pod, nodeName, request, true, groupOf.apply(pod).orElse(null)));
  }

  /** Releases an assumed pod whose binding failed; it is pending again. */
  public synchronized void forget(String uid) {
    Entry old = pods.get(uid);
    if (old != null && old.assumed()) {
      put(uid, new Entry(old.pod(), null, old.request(), false, old.group()));
    }
  }

  public synchronized boolean isAssumed(String uid) {
    Entry entry = pods.get(uid);
    return entry != null && entry.assumed();
  }

  /** Every node with the pods bound or assumed on it, for one scheduling cycle. */
  public synchronized List<NodeInfo> snapshot() {
    List<NodeInfo> out = new ArrayList<>(nodes.size());
    for (NodeInfo node : nodes.values()) {
      Usage used = usage.getOrDefault(node.name(), Usage.NONE);
      out.add(node.withUsage(used.requested(), used.pods()));
    }
    return out;
  }

  /** Pods of the group known to the cluster and not finished. */
  public synchronized int groupMembers(String group) {
    return groupCounts.getOrDefault(group, new int[2])[0];
  }

  /** Pods of the group bound or assumed on a node. */
  public synchronized int groupPlaced(String group) {
    return groupCounts.getOrDefault(group, new int[2])[1];
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
      usage.merge(
          entry.nodeName(),
          Usage.NONE.plus(entry.request(), sign),
          (a, b) -> a.plus(entry.request(), sign));
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

  static boolean isTerminal(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
