package io.koord4j.simulator.placement;

import io.koord4j.device.GpuAllocation;
import io.koord4j.device.GpuFragmentation;
import io.koord4j.device.TaskClass;
import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.TaskShape;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Fragmentation Gradient Descent (Weng et al., USENIX ATC '23): the node and GPU where the task
 * raises the node's expected fragmentation for the target workload least.
 */
final class Fgd extends CandidatePolicy {
  private final List<TaskClass> workload;

  Fgd(List<TaskClass> workload) {
    super("fgd");
    this.workload = workload;
  }

  /** The node whose fragmentation was measured last: its placements are scored in a row. */
  private SimNode measured;
  private double measuredFragmentation;

  /** One placement per free level: GPUs with equally much free leave the node equally fragmented. */
  @Override
  List<GpuAllocation> placements(SimNode node, TaskShape task) {
    int[] free = node.freeCapacity().gpuPercent();
    Set<Integer> levels = new HashSet<>();
    return node.candidates(task).stream()
        .filter(gpus -> gpus == null || !task.isGpuShare() || levels.add(free[gpus.gpus().get(0).minor()]))
        .toList();
  }

  @Override
  double score(SimNode before, SimNode after, TaskShape task) {
    if (before != measured) {
      measured = before;
      measuredFragmentation = GpuFragmentation.of(before.freeCapacity(), workload);
    }
    return measuredFragmentation - GpuFragmentation.of(after.freeCapacity(), workload);
  }
}
