package io.koord4j.device;

import java.util.Comparator;
import java.util.List;

/** The GPUs one pod gets on one node, ascending by minor. */
public record GpuAllocation(List<AllocatedGpu> gpus) {

  public GpuAllocation {
    gpus = gpus.stream().sorted(Comparator.comparingInt(AllocatedGpu::minor)).toList();
  }

  public List<Integer> minors() {
    return gpus.stream().map(AllocatedGpu::minor).toList();
  }

  /** The value of the pod annotation {@code scheduling.koordinator.sh/device-allocated}. */
  public String toAnnotation() {
    return DeviceAllocatedCodec.render(this);
  }
}
