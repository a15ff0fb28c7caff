package io.koord4j.scheduler.framework;

import io.koord4j.device.NodeGpuInventory;
import io.koord4j.device.NodeGpuUsage;

/**
 * A node's GPUs as one scheduling cycle sees them: its Device object's inventory and what bound
 * and assumed pods hold of it.
 *
 * @param inventory null when the node has no (valid) Device object
 * @param deviceError why the node's Device object cannot be read, null when it can or is absent
 */
public record NodeGpus(NodeGpuInventory inventory, NodeGpuUsage usage, String deviceError) {

  public static final NodeGpus NONE = new NodeGpus(null, NodeGpuUsage.NONE, null);

  public NodeGpus withUsage(NodeGpuUsage held) {
    return new NodeGpus(inventory, held, deviceError);
  }

  /** The node has a Device object, readable or not: its GPUs are counted by device, not by count. */
  public boolean hasDevice() {
    return inventory != null || deviceError != null;
  }
}
