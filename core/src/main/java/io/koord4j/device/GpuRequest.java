package io.koord4j.device;

import io.koord4j.quantity.ResourceQuantities;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The GPUs one pod asks for: {@code count} GPUs, each giving {@code corePercent} and {@code
 * memory}.
 *
 * @param requiredScope all GPUs inside one such scope, null when the pod does not care
 * @param minRingBusBandwidth bytes per second a partition must offer, 0 when not asked
 */
public record GpuRequest(
    int count,
    int corePercent,
    MemoryRequest memory,
    TopologyScope requiredScope,
    PartitionAllocatePolicy partitionPolicy,
    long minRingBusBandwidth) {

  public GpuRequest {
    if (count < 1) {
      throw new IllegalArgumentException("a GPU request needs at least one GPU: " + count);
    }
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(partitionPolicy, "partitionPolicy");
  }

  /** {@code nvidia.com/gpu: count}. */
  public static GpuRequest wholeGpus(int count) {
    return new GpuRequest(
        count, 100, MemoryRequest.ratio(100), null, PartitionAllocatePolicy.BEST_EFFORT, 0);
  }

  /** {@code koordinator.sh/gpu-core} and {@code gpu-memory-ratio} of one GPU. */
  public static GpuRequest share(int corePercent, int memoryRatioPercent) {
    return new GpuRequest(
        1,
        corePercent,
        MemoryRequest.ratio(memoryRatioPercent),
        null,
        PartitionAllocatePolicy.BEST_EFFORT,
        0);
  }

  /**
   * The GPU request of a pod, empty when it asks for no GPU.
   *
   * @param podKey {@code namespace/name}, for errors
   * @param requests the pod's effective resource requests (containers summed), as quantities
   * @param annotations the pod's annotations: device-allocate-hint, gpu-partition-spec
   * @throws InvalidDeviceSpecException naming the resource or annotation and the rule broken
   */
  public static Optional<GpuRequest> fromPod(
      String podKey, Map<String, String> requests, Map<String, String> annotations) {
    return GpuRequestParser.parse(podKey, requests, annotations);
  }

  public GpuRequest withRequiredScope(TopologyScope scope) {
    return new GpuRequest(count, corePercent, memory, scope, partitionPolicy, minRingBusBandwidth);
  }

  public GpuRequest withPartitionPolicy(PartitionAllocatePolicy policy) {
    return new GpuRequest(count, corePercent, memory, requiredScope, policy, minRingBusBandwidth);
  }

  /** Each GPU whole: only free GPUs will do, and NVLink partitions apply. */
  public boolean isWholeGpus() {
    return corePercent == 100 && memory.byRatio() && memory.ratioPercent() == 100;
  }

  /** What the pod takes of {@code device}. */
  GpuShare shareOn(GpuDevice device) {
    return memory.on(device, corePercent);
  }

  /** "50 % core and 25 % memory" (of each GPU), for reasons. */
  String shareDescription() {
    String memoryPart =
        memory.byRatio()
            ? memory.ratioPercent() + " % memory"
            : ResourceQuantities.bytes(memory.bytes()) + " memory";
    return corePercent + " % core and " + memoryPart;
  }
}
