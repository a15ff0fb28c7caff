package io.koord4j.device;

/**
 * One GPU of a node.
 *
 * @param uuid the device id written into {@code device-allocated}
 * @param pcie the PCIe switch the GPU hangs off; GPUs on one switch talk without crossing the CPU
 * @param numaNode the NUMA node, -1 when unknown
 * @param socket the CPU socket, -1 when unknown
 */
public record GpuDevice(
    int minor, String uuid, boolean healthy, long memoryBytes, String pcie, int numaNode, int socket) {

  public GpuDevice {
    if (minor < 0) {
      throw new IllegalArgumentException("GPU minor must not be negative: " + minor);
    }
    if (memoryBytes <= 0) {
      throw new IllegalArgumentException("GPU " + minor + " has no memory: " + memoryBytes);
    }
  }
}
