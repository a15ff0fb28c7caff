package io.koord4j.device;

/** The memory a pod asks of each GPU: a share of the GPU's memory, or a number of bytes. */
public record MemoryRequest(boolean byRatio, int ratioPercent, long bytes) {

  public static MemoryRequest ratio(int percent) {
    return new MemoryRequest(true, percent, 0);
  }

  public static MemoryRequest bytes(long bytes) {
    return new MemoryRequest(false, 0, bytes);
  }

  /** Both forms on a concrete GPU; a byte amount rounds its ratio down, as Koordinator does. */
  GpuShare on(GpuDevice device, int corePercent) {
    long total = device.memoryBytes();
    return byRatio
        ? new GpuShare(corePercent, ratioPercent, ratioPercent * total / 100)
        : new GpuShare(corePercent, (int) (bytes * 100 / total), bytes);
  }
}
