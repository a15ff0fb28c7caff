package io.koord4j.simulator.placement;

import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.TaskShape;

/**
 * Dot-product: the node whose free resources, as shares of its capacity, have the smallest dot
 * product with the task's demand in the same terms (the tightest alignment of demand and room).
 */
final class DotProduct extends CandidatePolicy {
  DotProduct() {
    super("dotprod");
  }

  @Override
  double score(SimNode before, SimNode after, TaskShape task) {
    double cpu = (double) task.milliCpu() * before.freeMilliCpu() / square(before.spec().milliCpu());
    double memory = (double) task.memoryMib() * before.freeMemoryMib() / square(before.spec().memoryMib());
    double gpuCapacity = before.spec().gpus() * 1000.0;
    double gpu = gpuCapacity == 0
        ? 0
        : task.gpuDemandMilli() * (gpuCapacity - before.gpuUsedMilli()) / (gpuCapacity * gpuCapacity);
    return -(cpu + memory + gpu);
  }

  private static double square(long value) {
    return (double) value * value;
  }
}
