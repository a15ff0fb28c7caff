package io.koord4j.device;

/**
 * One kind of task of a target workload, and how often it occurs: what the fragmentation measure
 * asks of a node's free resources.
 *
 * @param gpuCount GPUs per task, 0 for a task without GPUs
 * @param gpuPercent of each GPU, 100 for whole GPUs
 * @param weight the share of tasks of this kind in the workload; the weights of a workload add
 *     up to 1
 */
public record TaskClass(long milliCpu, long memoryBytes, int gpuCount, int gpuPercent, double weight) {

  public TaskClass {
    if (gpuCount < 0 || gpuPercent < 0 || gpuPercent > 100 || (gpuCount > 1 && gpuPercent != 100)) {
      throw new IllegalArgumentException(
          "a task class asks for whole GPUs, one share of one GPU, or none: " + gpuCount + " x " + gpuPercent + " %");
    }
  }

  /** The GPU percent one task of this class takes in total. */
  public int totalGpuPercent() {
    return gpuCount * gpuPercent;
  }
}
