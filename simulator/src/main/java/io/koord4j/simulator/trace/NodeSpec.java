package io.koord4j.simulator.trace;

import java.util.Objects;

/**
 * One node of a cluster trace.
 *
 * @param model the GPU model, null for a node without GPUs
 */
public record NodeSpec(String name, long milliCpu, long memoryMib, int gpus, String model) {

  public NodeSpec {
    Objects.requireNonNull(name, "name");
  }

  /** What identifies nodes that behave alike: all but the name. */
  public NodeSpec shape() {
    return new NodeSpec("", milliCpu, memoryMib, gpus, model);
  }
}
