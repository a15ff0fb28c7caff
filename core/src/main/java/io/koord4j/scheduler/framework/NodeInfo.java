package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.Taint;
import io.koord4j.api.WellKnown;
import io.koord4j.colocation.ThirdPartyAllocations;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import java.util.List;
import java.util.Map;

/**
 * A node as one scheduling cycle sees it: immutable, with the summed requests of the pods bound
 * or assumed on it. What filters read of the Node object (labels, taints, the unschedulable flag)
 * and the room left are taken once per change of the node or its pods, not once per pod and node:
 * a cycle then reads a few fields instead of walking each node's object.
 */
public final class NodeInfo {

  private final Node node;
  private final Map<String, String> labels;
  private final List<Taint> taints;
  private final boolean unschedulable;
  private final ResourceVector allocatable;
  private final ResourceVector thirdPartyRoom;
  private final ResourceVector requested;
  private final int podCount;
  private final NodeGpus gpus;
  private final ResourceVector free;

  /**
   * @param allocatable in base units, {@code pods} included
   * @param thirdPartyRoom the part of the allocatable's batch resources that third parties (YARN)
   *     may still fill, which no pod is placed into ({@link ThirdPartyAllocations#roomHeldFromPods})
   * @param gpus the node's GPUs by device, {@link NodeGpus#NONE} without a Device object
   */
  public NodeInfo(
      Node node,
      ResourceVector allocatable,
      ResourceVector thirdPartyRoom,
      ResourceVector requested,
      int podCount,
      NodeGpus gpus) {
    this(node, labelsOf(node), taintsOf(node.getSpec()), isUnschedulable(node.getSpec()),
        allocatable, thirdPartyRoom, requested, podCount, gpus, freeOf(allocatable, requested, thirdPartyRoom));
  }

  /** @param free {@code allocatable − requested − thirdPartyRoom}, passed on when only the GPUs change */

  private NodeInfo(
      Node node,
      Map<String, String> labels,
      List<Taint> taints,
      boolean unschedulable,
      ResourceVector allocatable,
      ResourceVector thirdPartyRoom,
      ResourceVector requested,
      int podCount,
      NodeGpus gpus,
      ResourceVector free) {
    this.node = node;
    this.labels = labels;
    this.taints = taints;
    this.unschedulable = unschedulable;
    this.allocatable = allocatable;
    this.thirdPartyRoom = thirdPartyRoom;
    this.requested = requested;
    this.podCount = podCount;
    this.gpus = gpus;
    this.free = free;
  }

  private static ResourceVector freeOf(
      ResourceVector allocatable, ResourceVector requested, ResourceVector thirdPartyRoom) {
    return allocatable.subtract(requested).subtract(thirdPartyRoom);
  }

  public static NodeInfo of(Node node) {
    var allocatable =
        ResourceQuantities.toVector(node.getStatus() == null ? null : node.getStatus().getAllocatable());
    return new NodeInfo(node, allocatable, thirdPartyRoom(node, allocatable), ResourceVector.EMPTY, 0, NodeGpus.NONE);
  }

  /** An annotation that cannot be read may hide any part: none of the batch resources is offered. */
  private static ResourceVector thirdPartyRoom(Node node, ResourceVector allocatable) {
    try {
      return ThirdPartyAllocations.roomHeldFromPods(node, allocatable);
    } catch (IllegalArgumentException e) {
      return ResourceVector.of(
          WellKnown.BATCH_CPU, allocatable.get(WellKnown.BATCH_CPU),
          WellKnown.BATCH_MEMORY, allocatable.get(WellKnown.BATCH_MEMORY));
    }
  }

  public Node node() {
    return node;
  }

  public String name() {
    return node.getMetadata().getName();
  }

  /** The node's labels, empty when it has none. */
  public Map<String, String> labels() {
    return labels;
  }

  /** The node's taints, empty when it has none. */
  public List<Taint> taints() {
    return taints;
  }

  /** Whether the node is cordoned ({@code spec.unschedulable}). */
  public boolean unschedulable() {
    return unschedulable;
  }

  public ResourceVector allocatable() {
    return allocatable;
  }

  public ResourceVector thirdPartyRoom() {
    return thirdPartyRoom;
  }

  public ResourceVector requested() {
    return requested;
  }

  public int podCount() {
    return podCount;
  }

  public NodeGpus gpus() {
    return gpus;
  }

  /** What pods may still be given of {@code resource}: the allocatable less requests and third parties' room. */
  public long free(String resource) {
    return free.get(resource);
  }

  public NodeInfo withUsage(ResourceVector requested, int podCount) {
    return new NodeInfo(node, labels, taints, unschedulable, allocatable, thirdPartyRoom, requested, podCount, gpus,
        freeOf(allocatable, requested, thirdPartyRoom));
  }

  public NodeInfo withGpus(NodeGpus gpus) {
    return new NodeInfo(node, labels, taints, unschedulable, allocatable, thirdPartyRoom, requested, podCount, gpus, free);
  }

  @Override
  public String toString() {
    return "NodeInfo[" + name() + ", requested " + requested + " of " + allocatable + ", " + podCount + " pods]";
  }

  private static Map<String, String> labelsOf(Node node) {
    Map<String, String> labels = node.getMetadata() == null ? null : node.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }

  private static List<Taint> taintsOf(NodeSpec spec) {
    return spec == null || spec.getTaints() == null ? List.of() : spec.getTaints();
  }

  private static boolean isUnschedulable(NodeSpec spec) {
    return spec != null && Boolean.TRUE.equals(spec.getUnschedulable());
  }
}
