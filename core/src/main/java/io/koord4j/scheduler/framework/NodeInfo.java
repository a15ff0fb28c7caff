package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Node;
import io.koord4j.api.WellKnown;
import io.koord4j.colocation.ThirdPartyAllocations;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;

/**
 * A node as one scheduling cycle sees it: immutable, with the summed requests of the pods bound
 * or assumed on it.
 *
 * @param allocatable in base units, {@code pods} included
 * @param thirdPartyRoom the part of the allocatable's batch resources that third parties (YARN)
 *     may still fill, which no pod is placed into ({@link ThirdPartyAllocations#roomHeldFromPods})
 * @param gpus the node's GPUs by device, {@link NodeGpus#NONE} without a Device object
 */
public record NodeInfo(
    Node node,
    ResourceVector allocatable,
    ResourceVector thirdPartyRoom,
    ResourceVector requested,
    int podCount,
    NodeGpus gpus) {

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

  public String name() {
    return node.getMetadata().getName();
  }

  /** What pods may still be given of {@code resource}: the allocatable less requests and third parties' room. */
  public long free(String resource) {
    return allocatable.get(resource) - requested.get(resource) - thirdPartyRoom.get(resource);
  }

  public NodeInfo withUsage(ResourceVector requested, int podCount) {
    return new NodeInfo(node, allocatable, thirdPartyRoom, requested, podCount, gpus);
  }

  public NodeInfo withGpus(NodeGpus gpus) {
    return new NodeInfo(node, allocatable, thirdPartyRoom, requested, podCount, gpus);
  }
}
