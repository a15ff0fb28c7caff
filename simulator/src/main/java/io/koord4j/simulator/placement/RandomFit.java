package io.koord4j.simulator.placement;

import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.TaskShape;

/** Random-fit: any node the task fits, drawn uniformly. */
final class RandomFit extends CandidatePolicy {
  RandomFit() {
    super("random");
  }

  @Override
  public boolean drawsAtRandom() {
    return true;
  }

  @Override
  double score(SimNode before, SimNode after, TaskShape task) {
    return 0;
  }
}
