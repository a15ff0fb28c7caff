package io.koord4j.koordlet.device;

import java.util.List;

/** Where koordlet learns the node's GPUs; one implementation per vendor tool. */
public interface GpuInventory {
  /** The GPUs now, ascending by minor; empty when the node has none. */
  List<GpuInfo> gpus();

  /** Written to the node label {@code node.koordinator.sh/gpu-vendor}. */
  String vendor();

  /** The GPU pairs joined by NVLink, as minors; used for the partition table. */
  List<int[]> nvlinkPairs();

  /** Whether all GPUs are joined to each other by NVLink (an NVSwitch board). */
  boolean allNvlinked();
}
