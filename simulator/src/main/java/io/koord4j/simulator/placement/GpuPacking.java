package io.koord4j.simulator.placement;

import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.TaskShape;

/**
 * GPU Packing: a GPU already in use first, then an idle GPU of a node already in use, then an
 * idle node; among equals the node whose GPUs are fullest.
 */
final class GpuPacking extends CandidatePolicy {
  GpuPacking() {
    super("gpupacking");
  }

  @Override
  double score(SimNode before, SimNode after, TaskShape task) {
    boolean sharesUsedGpu = task.isGpuShare() && usedGpus(after) == usedGpus(before);
    int tier = sharesUsedGpu ? 2 : before.gpuUsedMilli() > 0 ? 1 : 0;
    return tier + gpuFullness(before);
  }

  /** How many GPUs hold something. */
  private static long usedGpus(SimNode node) {
    return node.inventory().devices().stream().filter(d -> !node.gpus().isFree(d.minor())).count();
  }
}
