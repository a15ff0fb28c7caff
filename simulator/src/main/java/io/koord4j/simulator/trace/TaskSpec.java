package io.koord4j.simulator.trace;

import java.util.Objects;

/**
 * One task of a workload trace. Times are seconds from the trace's start.
 *
 * @param deletion when the task ended; its runtime is {@code deletion - scheduled}
 * @param scheduled when the task started in the traced cluster
 * @param queue the queue it was submitted to
 * @param pods how many pods of this shape the task runs as one gang: all start together or none
 * @param expectedRuntimeSeconds what the submitter expects it to run, or 0 when unknown; a
 *     backfilling queue plans with it
 */
public record TaskSpec(
    String name,
    TaskShape shape,
    long creation,
    long deletion,
    long scheduled,
    String queue,
    int priority,
    int pods,
    long expectedRuntimeSeconds) {

  /** A single-pod task whose expected runtime is unknown. */
  public TaskSpec(
      String name, TaskShape shape, long creation, long deletion, long scheduled, String queue, int priority) {
    this(name, shape, creation, deletion, scheduled, queue, priority, 1, 0);
  }

  public TaskSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(queue, "queue");
    if (pods < 1) {
      throw new IllegalArgumentException("task " + name + ": pods must be at least 1, not " + pods);
    }
  }

  /** How long the task runs once started, at least one second. */
  public long runtimeSeconds() {
    return Math.max(1, deletion - Math.max(creation, scheduled));
  }
}
