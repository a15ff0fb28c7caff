package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Node;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;

/**
 * A node as one scheduling cycle sees it: immutable, with the summed requests of the pods bound
 * or assumed on it.
 *
 * @param allocatable in base units, {@code pods} included
 * @param gpus the node's GPUs by device, {@link NodeGpus#NONE} without a Device object
 */
public record NodeInfo(
    Node node, ResourceVector allocatable, ResourceVector requested, int podCount, NodeGpus gpus) {

  public static NodeInfo of(Node node) {
    var allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
    return new NodeInfo(
        node, ResourceQuantities.toVector(allocatable), ResourceVector.EMPTY, 0, NodeGpus.NONE);
  }

  public String name() {
    return node.getMetadata().getName();
  }

  public NodeInfo withUsage(ResourceVector requested, int podCount) {
    return new NodeInfo(node, allocatable, requested, podCount, gpus);
  }

  public NodeInfo withGpus(NodeGpus gpus) {
    return new NodeInfo(node, allocatable, requested, podCount, gpus);
  }
}
