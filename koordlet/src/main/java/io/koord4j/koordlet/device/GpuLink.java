package io.koord4j.koordlet.device;

/** How two GPUs reach each other, from {@code nvidia-smi topo -m}. */
public enum GpuLink {
  /** A bonded set of NVLinks ("NV#"). */
  NVLINK,
  /** At most one PCIe bridge ("PIX"). */
  PIX,
  /** Several PCIe bridges, no host bridge ("PXB"). */
  PXB,
  /** Through a PCIe host bridge, the CPU ("PHB"). */
  PHB,
  /** Between host bridges of one NUMA node ("NODE"). */
  NODE,
  /** Across NUMA nodes ("SYS"). */
  SYS;

  static GpuLink parse(String cell) {
    if (cell.startsWith("NV")) {
      return NVLINK;
    }
    return switch (cell) {
      case "PIX" -> PIX;
      case "PXB" -> PXB;
      case "PHB" -> PHB;
      case "NODE" -> NODE;
      case "SYS" -> SYS;
      default -> throw new IllegalArgumentException("nvidia-smi topo -m: unknown link \"" + cell + "\"");
    };
  }

  /** Whether the two GPUs sit below one PCIe switch. */
  boolean sameSwitch() {
    return this == PIX || this == PXB;
  }
}
