package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.api.kueue.Workload;
import io.koord4j.device.ClusterNode;
import io.koord4j.device.GpuAllocation;
import io.koord4j.device.NodeResources;
import io.koord4j.device.PodPlacement;
import io.koord4j.device.PodSetRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The schedulable nodes with what is free on them, as gang placement sees them. Immutable:
 * {@link #withPlaced} returns the cluster after a gang took its room, so that gangs decided in
 * the same pass do not count the same free GPUs twice.
 */
final class ClusterSnapshot {
  private final Map<String, ClusterNode> nodes;
  /** The node objects by name, for the scheduler's node filters and topology labels. */
  private final Map<String, Node> objects;
  private final Map<String, Integer> boundPodsByOwner;
  private final Map<String, Integer> boundPodsByGang;

  private ClusterSnapshot(
      Map<String, ClusterNode> nodes,
      Map<String, Node> objects,
      Map<String, Integer> boundPodsByOwner,
      Map<String, Integer> boundPodsByGang) {
    this.nodes = nodes;
    this.objects = objects;
    this.boundPodsByOwner = boundPodsByOwner;
    this.boundPodsByGang = boundPodsByGang;
  }

  /** Nodes sorted by name, so that the same cluster always gives the same placements. */
  static ClusterSnapshot of(List<Node> nodes, List<Pod> pods, Map<String, Device> devices) {
    Map<String, List<Pod>> podsByNode = new LinkedHashMap<>();
    Map<String, Integer> byOwner = new HashMap<>();
    Map<String, Integer> byGang = new HashMap<>();
    for (Pod pod : pods) {
      if (pod.getSpec() == null || pod.getSpec().getNodeName() == null) {
        continue;
      }
      if (isBoundAndHolding(pod)) {
        podsByNode.computeIfAbsent(pod.getSpec().getNodeName(), n -> new ArrayList<>()).add(pod);
      }
      ownerUid(pod.getMetadata()).ifPresent(uid -> byOwner.merge(uid, 1, Integer::sum));
      gangKey(pod.getMetadata()).ifPresent(gang -> byGang.merge(gang, 1, Integer::sum));
    }
    Map<String, ClusterNode> byName = new LinkedHashMap<>();
    Map<String, Node> objects = new LinkedHashMap<>();
    nodes.stream()
        .filter(ClusterSnapshot::acceptsPods)
        .sorted(Comparator.comparing(node -> node.getMetadata().getName()))
        .forEach(node -> {
          String name = node.getMetadata().getName();
          byName.put(name, NodeModel.of(node, devices.get(name), podsByNode.getOrDefault(name, List.of())));
          objects.put(name, node);
        });
    return new ClusterSnapshot(byName, objects, byOwner, byGang);
  }

  /**
   * How many pods of a workload were bound, finished ones included: pods owned by the workload's
   * owner (a Job's pods) or carrying its gang annotation (pods of nested jobs).
   */
  int boundPods(Workload workload) {
    int owned = ownerUid(workload.getMetadata()).map(uid -> boundPodsByOwner.getOrDefault(uid, 0)).orElse(0);
    int inGang = boundPodsByGang.getOrDefault(
        workload.getMetadata().getNamespace() + "/" + workload.getMetadata().getName(), 0);
    return Math.max(owned, inGang);
  }

  /** The nodes that pass {@code filter}. */
  List<ClusterNode> nodes(Predicate<Node> filter) {
    return nodes.values().stream().filter(node -> filter.test(objects.get(node.name()))).toList();
  }

  /** {@code node <name>: <why>} for each node that {@code refusal} refuses, in name order. */
  List<String> refusals(Function<Node, Optional<String>> refusal) {
    List<String> refusals = new ArrayList<>();
    objects.forEach((name, node) -> refusal.apply(node).ifPresent(why -> refusals.add("node " + name + ": " + why)));
    return refusals;
  }

  /** Whether any node accepts pods at all (Ready, not cordoned). */
  boolean hasNodes() {
    return !nodes.isEmpty();
  }

  /**
   * The nodes that pass {@code filter}, grouped by their value of the label {@code key}
   * in value order; nodes without the label belong to no domain.
   */
  SortedMap<String, List<ClusterNode>> domains(String key, Predicate<Node> filter) {
    SortedMap<String, List<ClusterNode>> domains = new TreeMap<>();
    for (ClusterNode node : nodes(filter)) {
      Map<String, String> labels = objects.get(node.name()).getMetadata().getLabels();
      String value = labels == null ? null : labels.get(key);
      if (value != null) {
        domains.computeIfAbsent(value, v -> new ArrayList<>()).add(node);
      }
    }
    return domains;
  }

  /** The cluster after {@code placements} of {@code gang}'s pods took their room. */
  ClusterSnapshot withPlaced(List<PodSetRequest> gang, List<PodPlacement> placements) {
    Map<String, ClusterNode> next = new LinkedHashMap<>(nodes);
    for (PodPlacement placement : placements) {
      PodSetRequest podSet = gang.stream().filter(set -> set.name().equals(placement.podSet())).findFirst().orElseThrow();
      ClusterNode node = next.get(placement.nodeName());
      GpuAllocation gpus = placement.gpus();
      NodeResources free = node.free().minus(podSet.milliCpu(), podSet.memoryBytes());
      next.put(node.name(), new ClusterNode(
          node.gpus(), gpus == null ? node.gpuUsage() : node.gpuUsage().reserve(gpus), node.allocatable(), free));
    }
    return new ClusterSnapshot(next, objects, boundPodsByOwner, boundPodsByGang);
  }

  /** Bound and not finished: what the scheduler still counts against its node. */
  static boolean isBoundAndHolding(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return pod.getSpec() != null && pod.getSpec().getNodeName() != null
        && !"Succeeded".equals(phase) && !"Failed".equals(phase);
  }

  private static Optional<String> ownerUid(ObjectMeta meta) {
    return meta.getOwnerReferences() == null
        ? Optional.empty()
        : meta.getOwnerReferences().stream()
            .filter(owner -> Boolean.TRUE.equals(owner.getController()))
            .map(OwnerReference::getUid)
            .findFirst();
  }

  private static Optional<String> gangKey(ObjectMeta meta) {
    String gang = meta.getAnnotations() == null ? null : meta.getAnnotations().get(WellKnown.GANG_NAME);
    return Optional.ofNullable(gang).map(name -> meta.getNamespace() + "/" + name);
  }

  private static boolean acceptsPods(Node node) {
    boolean cordoned = node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    boolean ready = node.getStatus() != null && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(condition -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
    return ready && !cordoned;
  }
}
