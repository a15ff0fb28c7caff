package io.koord4j.device;

import java.util.Map;
import java.util.TreeMap;

/**
 * What pods hold of each GPU of one node. Immutable: reserving or releasing returns a new usage,
 * so a scheduling cycle or a feasibility check can try placements on a scratch copy for free.
 */
public final class NodeGpuUsage {

  public static final NodeGpuUsage NONE = new NodeGpuUsage(Map.of());

  private final Map<Integer, GpuShare> byMinor;

  private NodeGpuUsage(Map<Integer, GpuShare> byMinor) {
    this.byMinor = byMinor;
  }

  /**
   * The usage recorded in pods' {@code device-allocated} annotations.
   *
   * @param annotationByPod {@code namespace/name} to the annotation value, for the pods bound or
   *     assumed on this node
   * @throws InvalidDeviceSpecException naming the first pod whose annotation is malformed
   */
  public static NodeGpuUsage fromPods(NodeGpuInventory inventory, Map<String, String> annotationByPod) {
    NodeGpuUsage usage = NONE;
    for (Map.Entry<String, String> pod : annotationByPod.entrySet()) {
      usage = usage.reserve(DeviceAllocatedCodec.parse(pod.getKey(), pod.getValue(), inventory));
    }
    return usage;
  }

  public GpuShare of(int minor) {
    return byMinor.getOrDefault(minor, GpuShare.NONE);
  }

  public boolean isFree(int minor) {
    return of(minor).isNone();
  }

  public NodeGpuUsage reserve(GpuAllocation allocation) {
    return apply(allocation, 1);
  }

  public NodeGpuUsage release(GpuAllocation allocation) {
    return apply(allocation, -1);
  }

  private NodeGpuUsage apply(GpuAllocation allocation, int sign) {
    Map<Integer, GpuShare> next = new TreeMap<>(byMinor);
    for (AllocatedGpu gpu : allocation.gpus()) {
      GpuShare current = of(gpu.minor());
      GpuShare updated = sign > 0 ? current.plus(gpu.share()) : current.minus(gpu.share());
      if (updated.corePercent() < 0 || updated.memoryRatioPercent() < 0 || updated.memoryBytes() < 0) {
        throw new IllegalArgumentException("releasing more of GPU " + gpu.minor() + " than is held");
      }
      if (updated.isNone()) {
        next.remove(gpu.minor());
      } else {
        next.put(gpu.minor(), updated);
      }
    }
    return new NodeGpuUsage(Map.copyOf(next));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof NodeGpuUsage usage && usage.byMinor.equals(byMinor);
  }

  @Override
  public int hashCode() {
    return byMinor.hashCode();
  }

  @Override
  public String toString() {
    return new TreeMap<>(byMinor).toString();
  }
}
