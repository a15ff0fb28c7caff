package io.koord4j.koordlet.device;

/**
 * One GPU as the inventory sees it.
 *
 * @param busId the PCI address, e.g. {@code 00000000:18:00.0}
 * @param numaNode the NUMA node the GPU is attached to, -1 when unknown
 * @param pcieSwitch the PCIe switch it shares with other GPUs (GPUs on one switch talk without
 *     crossing the CPU), null when it has one of its own
 */
public record GpuInfo(
    int minor, String uuid, String productName, long memoryBytes, String busId, int numaNode, String pcieSwitch, boolean healthy) {}
