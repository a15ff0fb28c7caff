package io.koord4j.koordlet.device;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the matrix of {@code nvidia-smi topo -m}: the link between each pair of GPUs and each
 * GPU's NUMA affinity; no I/O.
 *
 * @param links links[i][j] between GPU i and GPU j (null on the diagonal)
 * @param numaNodes NUMA node per GPU index, -1 when "N/A"
 */
public record NvidiaTopology(GpuLink[][] links, int[] numaNodes) {

  public static NvidiaTopology parse(String matrix) {
    List<String> lines = matrix.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("nvidia-smi topo -m: empty output");
    }
    List<String> header = List.of(lines.get(0).split("\\s{2,}|\\t+"));
    int numaColumn = header.indexOf("NUMA Affinity");
    List<String[]> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (line.matches("^GPU\\d+\\s.*")) {
        rows.add(line.split("\\s+"));
      }
    }
    int gpus = rows.size();
    GpuLink[][] links = new GpuLink[gpus][gpus];
    int[] numa = new int[gpus];
    for (int i = 0; i < gpus; i++) {
      String[] row = rows.get(i);
      if (row.length < gpus + 1) {
        throw new IllegalArgumentException("nvidia-smi topo -m: row " + row[0] + " has fewer than " + gpus + " GPU columns");
      }
      for (int j = 0; j < gpus; j++) {
        links[i][j] = i == j ? null : GpuLink.parse(row[j + 1]);
      }
      numa[i] = numaColumn < 0 ? -1 : numa(row, numaColumn + 1);
    }
    return new NvidiaTopology(links, numa);
  }

  /** Rows carry their label first, so a header column is one further right; CPU affinity is one token. */
  private static int numa(String[] row, int index) {
    String value = index < row.length ? row[index] : "N/A";
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** GPU index to a PCIe switch name shared by GPUs linked through PIX or PXB; absent if alone. */
  public Map<Integer, String> pcieSwitches() {
    int gpus = links.length;
    int[] group = new int[gpus];
    for (int i = 0; i < gpus; i++) {
      group[i] = i;
    }
    for (int i = 0; i < gpus; i++) {
      for (int j = i + 1; j < gpus; j++) {
        boolean pcie = links[i][j] != null && links[i][j].sameSwitch();
        if (pcie) {
          group[j] = group[i];
        }
      }
    }
    Map<Integer, Integer> members = new HashMap<>();
    for (int g : group) {
      members.merge(g, 1, Integer::sum);
    }
    Map<Integer, String> switches = new HashMap<>();
    for (int i = 0; i < gpus; i++) {
      if (members.get(group[i]) > 1) {
        switches.put(i, "pcie-" + group[i]);
      }
    }
    return switches;
  }

  /** Whether every pair of GPUs has an NVLink path (an NVSwitch board). */
  public boolean allNvlinked() {
    for (int i = 0; i < links.length; i++) {
      for (int j = 0; j < links.length; j++) {
        if (i != j && links[i][j] != GpuLink.NVLINK) {
          return false;
        }
      }
    }
    return links.length > 1;
  }

  /** The GPU pairs joined directly by NVLink, lower index first. */
  public List<int[]> nvlinkPairs() {
    List<int[]> pairs = new ArrayList<>();
    for (int i = 0; i < links.length; i++) {
      for (int j = i + 1; j < links.length; j++) {
        if (links[i][j] == GpuLink.NVLINK) {
          pairs.add(new int[] {i, j});
        }
      }
    }
    return pairs;
  }
}
