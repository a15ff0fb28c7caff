package io.koord4j.simulator.placement;

import io.koord4j.device.GpuAllocation;
import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.TaskShape;
import java.util.List;
import java.util.Optional;

/**
 * A policy that scores each placement of the task on a node by the node before and after it, and
 * keeps the node's best one.
 */
abstract class CandidatePolicy implements PlacementPolicy {
  private final String name;

  CandidatePolicy(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Optional<Scored> evaluate(SimNode node, TaskShape task) {
    Scored best = null;
    for (GpuAllocation gpus : placements(node, task)) {
      double score = score(node, node.with(task, gpus), task);
      if (best == null || score > best.score()) {
        best = new Scored(score, gpus);
      }
    }
    return Optional.ofNullable(best);
  }

  /** The placements to compare: by default only the one the core's allocator makes. */
  List<GpuAllocation> placements(SimNode node, TaskShape task) {
    return node.allocatorChoice(task);
  }

  abstract double score(SimNode before, SimNode after, TaskShape task);

  /** The share of the node's GPUs in use, 0 for a node without GPUs. */
  static double gpuFullness(SimNode node) {
    return node.spec().gpus() == 0 ? 0 : node.gpuUsedMilli() / (node.spec().gpus() * 1000.0);
  }
}
