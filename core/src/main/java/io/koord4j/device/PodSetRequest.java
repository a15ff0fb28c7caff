package io.koord4j.device;

/**
 * {@code count} identical pods of a gang.
 *
 * @param gpu null when the pods ask for no GPU
 */
public record PodSetRequest(String name, int count, long milliCpu, long memoryBytes, GpuRequest gpu) {

  /** How much GPU each pod takes, in percent of one GPU; orders pod sets biggest first. */
  long gpuPercent() {
    if (gpu == null) {
      return 0;
    }
    int memory = gpu.memory().byRatio() ? gpu.memory().ratioPercent() : 0;
    return (long) gpu.count() * Math.max(gpu.corePercent(), memory);
  }
}
