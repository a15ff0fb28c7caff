package io.koord4j.simulator.trace;

import java.util.Set;

/**
 * What one task asks of a node; tasks of one shape are placed alike.
 *
 * @param gpuCount GPUs, 0 for a task without GPUs
 * @param gpuMilli thousandths of each GPU: 1000 for whole GPUs, less for a share of one GPU
 * @param models GPU models the task accepts, empty for any
 */
public record TaskShape(long milliCpu, long memoryMib, int gpuCount, int gpuMilli, Set<String> models) {

  public TaskShape {
    models = Set.copyOf(models);
  }

  /** The GPU demand in thousandths of a GPU. */
  public long gpuDemandMilli() {
    return (long) gpuCount * gpuMilli;
  }

  public boolean isGpuShare() {
    return gpuCount == 1 && gpuMilli < 1000;
  }

  /** The same demand, bound to {@code models} instead (empty for any model). */
  public TaskShape withModels(Set<String> models) {
    return new TaskShape(milliCpu, memoryMib, gpuCount, gpuMilli, models);
  }

  public boolean accepts(String model) {
    return models.isEmpty() || models.contains(model);
  }
}
