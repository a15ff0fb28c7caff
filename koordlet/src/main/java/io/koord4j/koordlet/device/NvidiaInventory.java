package io.koord4j.koordlet.device;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** NVIDIA GPUs from the reports of {@code nvidia-smi -q -x} and {@code nvidia-smi topo -m}. */
public final class NvidiaInventory implements GpuInventory {
  /** Runs one nvidia-smi command and returns its output. */
  public interface Reports {
    String query();

    String topology();
  }

  private final Reports reports;
  private NvidiaTopology lastTopology;

  public NvidiaInventory(Reports reports) {
    this.reports = reports;
  }

  @Override
  public List<GpuInfo> gpus() {
    List<NvidiaSmiXml.Gpu> gpus = new ArrayList<>(NvidiaSmiXml.parse(reports.query()));
    gpus.sort(Comparator.comparingInt(NvidiaSmiXml.Gpu::minor));
    NvidiaTopology topology = NvidiaTopology.parse(reports.topology());
    if (topology.numaNodes().length != gpus.size()) {
      throw new IllegalArgumentException(
          "nvidia-smi reports " + gpus.size() + " GPUs but its topology matrix has " + topology.numaNodes().length);
    }
    lastTopology = topology;
    Map<Integer, String> switches = topology.pcieSwitches();
    List<GpuInfo> result = new ArrayList<>();
    for (int i = 0; i < gpus.size(); i++) {
      NvidiaSmiXml.Gpu gpu = gpus.get(i);
      result.add(new GpuInfo(
          gpu.minor(), gpu.uuid(), gpu.productName(), gpu.memoryBytes(), gpu.busId(),
          topology.numaNodes()[i], switches.get(i), true));
    }
    return result;
  }

  @Override
  public String vendor() {
    return "nvidia";
  }

  /** Topology rows follow the minors in order (GPU0 is minor 0 on Linux). */
  @Override
  public List<int[]> nvlinkPairs() {
    return lastTopology == null ? List.of() : lastTopology.nvlinkPairs();
  }

  @Override
  public boolean allNvlinked() {
    return lastTopology != null && lastTopology.allNvlinked();
  }
}
