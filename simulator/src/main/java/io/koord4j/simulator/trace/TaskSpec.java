package io.koord4j.simulator.trace;

import java.util.Objects;

/**
 * One task of a workload trace. Times are seconds from the trace's start.
 *
 * @param deletion when the task ended; its runtime is {@code deletion - scheduled}
 * @param scheduled when the task started in the traced cluster
 * @param queue the queue it was submitted to
 */
public record TaskSpec(
    String name, TaskShape shape, long creation, long deletion, long scheduled, String queue, int priority) {

  public TaskSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(queue, "queue");
  }

  /** How long the task runs once started, at least one second. */
  public long runtimeSeconds() {
    return Math.max(1, deletion - Math.max(creation, scheduled));
  }
}
