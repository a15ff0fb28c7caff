package io.koord4j.simulator.placement;

import io.koord4j.device.GpuAllocation;
import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.TaskShape;
import java.util.List;
import java.util.Optional;

/** Random-fit: any node the task fits, drawn uniformly; the GPUs are the core allocator's choice. */
final class RandomFit implements PlacementPolicy {

  @Override
  public String name() {
    return "random";
  }

  @Override
  public Optional<Scored> evaluate(SimNode node, TaskShape task) {
    List<GpuAllocation> choice = node.allocatorChoice(task);
    return choice.isEmpty() ? Optional.empty() : Optional.of(new Scored(0, choice.get(0)));
  }

  @Override
  public boolean drawsAtRandom() {
    return true;
  }
}
