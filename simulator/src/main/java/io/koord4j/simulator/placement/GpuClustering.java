package io.koord4j.simulator.placement;

import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.TaskShape;

/**
 * GPU Clustering: tasks of equal GPU demand together. Nodes already hosting tasks of the task's
 * demand first (the more the better), then idle nodes, then the rest; among equals the fullest.
 */
final class GpuClustering extends CandidatePolicy {
  GpuClustering() {
    super("gpuclustering");
  }

  @Override
  double score(SimNode before, SimNode after, TaskShape task) {
    long alike = before.held().hostedGpuMilli().stream().filter(d -> d == task.gpuDemandMilli()).count();
    double tier = alike > 0 ? 2 + alike / 1000.0 : before.held().hostedGpuMilli().isEmpty() ? 1 : 0;
    return tier + gpuFullness(before) / 1000;
  }
}
