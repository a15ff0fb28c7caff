package io.koord4j.device;

/**
 * A node as gang placement sees it.
 *
 * @param gpus an inventory without devices for nodes without GPUs
 */
public record ClusterNode(
    NodeGpuInventory gpus, NodeGpuUsage gpuUsage, NodeResources allocatable, NodeResources free) {

  public String name() {
    return gpus.nodeName();
  }

  /** The same node with nothing running on it. */
  public ClusterNode emptied() {
    return new ClusterNode(gpus, NodeGpuUsage.NONE, allocatable, allocatable);
  }
}
