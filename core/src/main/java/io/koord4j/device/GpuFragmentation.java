package io.koord4j.device;

import java.util.List;

/**
 * How much of a node's free GPU capacity a target workload could not use: the fragmentation
 * measure of "Beware of Fragmentation" (Weng et al., USENIX ATC '23), in GPU percent.
 *
 * <p>For one task class, a node's free GPU capacity counts as fragmented when the task cannot run
 * on the node at all (too little CPU, memory or GPU), and otherwise the free part of each GPU that
 * cannot hold the task's per-GPU demand. A task without GPUs cannot use any GPU, so for it all
 * free GPU capacity counts. The node's fragmentation for a workload is the weighted sum over its
 * task classes. Placing a task where it raises this measure least keeps the cluster able to host
 * the workload to come.
 */
public final class GpuFragmentation {
  private GpuFragmentation() {}

  /** The free percent of each healthy GPU of a node, and its free CPU and memory. */
  public record FreeCapacity(int[] gpuPercent, long milliCpu, long memoryBytes) {

    public static FreeCapacity of(
        NodeGpuInventory inventory, NodeGpuUsage usage, long milliCpu, long memoryBytes) {
      List<GpuDevice> healthy = inventory.healthyDevices();
      int[] free = new int[healthy.size()];
      for (int i = 0; i < free.length; i++) {
        GpuDevice device = healthy.get(i);
        free[i] = Math.max(0, 100 - usage.of(device.minor()).fullnessPercent(device));
      }
      return new FreeCapacity(free, milliCpu, memoryBytes);
    }

    public int totalGpuPercent() {
      int total = 0;
      for (int percent : gpuPercent) {
        total += percent;
      }
      return total;
    }
  }

  /** The expected fragmented GPU percent of a node for {@code workload}. */
  public static double of(FreeCapacity node, List<TaskClass> workload) {
    int total = node.totalGpuPercent();
    double fragmented = 0;
    for (TaskClass task : workload) {
      fragmented += task.weight() * forTask(node, task, total);
    }
    return fragmented;
  }

  /** The fragmented GPU percent of a node for one task class. */
  static int forTask(FreeCapacity node, TaskClass task, int totalFree) {
    if (task.gpuCount() == 0
        || task.milliCpu() > node.milliCpu()
        || task.memoryBytes() > node.memoryBytes()) {
      return totalFree;
    }
    int unusable = 0;
    int usableGpus = 0;
    for (int percent : node.gpuPercent()) {
      if (percent < task.gpuPercent()) {
        unusable += percent;
      } else {
        usableGpus++;
      }
    }
    return usableGpus >= task.gpuCount() ? unusable : totalFree;
  }
}
