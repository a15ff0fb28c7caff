package io.koord4j.device;

/**
 * An amount of one GPU: what a pod holds of it or asks of it.
 *
 * @param corePercent compute, 100 = the whole GPU
 * @param memoryRatioPercent memory as a share of the GPU's memory, 100 = all of it
 * @param memoryBytes memory in bytes
 */
public record GpuShare(int corePercent, int memoryRatioPercent, long memoryBytes) {

  public static final GpuShare NONE = new GpuShare(0, 0, 0);

  public GpuShare plus(GpuShare other) {
    return new GpuShare(
        corePercent + other.corePercent,
        memoryRatioPercent + other.memoryRatioPercent,
        memoryBytes + other.memoryBytes);
  }

  public GpuShare minus(GpuShare other) {
    return new GpuShare(
        corePercent - other.corePercent,
        memoryRatioPercent - other.memoryRatioPercent,
        memoryBytes - other.memoryBytes);
  }

  public boolean isNone() {
    return equals(NONE);
  }

  /** Never beyond 100 % core, 100 % memory ratio or the device's memory in bytes. */
  boolean fitsOn(GpuDevice device) {
    return corePercent <= 100 && memoryRatioPercent <= 100 && memoryBytes <= device.memoryBytes();
  }

  /** How full the GPU is, by whichever of core and memory is fuller; for bin-packing. */
  int fullnessPercent(GpuDevice device) {
    long byBytes = memoryBytes * 100 / device.memoryBytes();
    return (int) Math.max(Math.max(corePercent, memoryRatioPercent), byBytes);
  }
}
