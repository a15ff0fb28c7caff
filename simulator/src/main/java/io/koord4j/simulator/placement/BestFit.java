package io.koord4j.simulator.placement;

import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.TaskShape;

/**
 * Best-fit: the node with the least resources left after the task, summed over CPU, memory and
 * GPU as shares of the node's capacity.
 */
final class BestFit extends CandidatePolicy {
  BestFit() {
    super("bestfit");
  }

  @Override
  double score(SimNode before, SimNode after, TaskShape task) {
    double left = (double) after.freeMilliCpu() / after.spec().milliCpu()
        + (double) after.freeMemoryMib() / after.spec().memoryMib()
        + (1 - gpuFullness(after));
    return -left;
  }
}
