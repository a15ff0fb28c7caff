package io.koord4j.simulator.placement;

import io.koord4j.device.GpuAllocation;
import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.TaskShape;
import java.util.Optional;

/** How one placement policy ranks nodes for a task and picks the task's GPUs on a node. */
public interface PlacementPolicy {

  /**
   * A node's score for a task, higher is better, and the GPUs the task would get there (null for a
   * task without GPUs).
   */
  record Scored(double score, GpuAllocation gpus) {}

  String name();

  /**
   * The task on this node, empty when it does not fit. Must depend on the node's state only (not
   * its name or number): nodes in equal states share one evaluation.
   */
  Optional<Scored> evaluate(SimNode node, TaskShape task);

  /** A task arrives to be placed; policies that learn from the workload see it here first. */
  default void arrived(TaskShape task) {}

  /**
   * Changes when the policy's scores may have changed for nodes whose state did not (say, after
   * learning): the placer then forgets the evaluations it kept.
   */
  default long version() {
    return 0;
  }

  /** Random-fit: any feasible node, drawn uniformly, instead of the highest score. */
  default boolean drawsAtRandom() {
    return false;
  }
}
