package io.koord4j.e2e.node;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the CPUs did over a window, read from the host as an observer: the node's busy cores from
 * {@code /proc/stat}, cores used by all pods, the BestEffort QoS class and single pods from their
 * kubelet cgroups' CPU time, and the BestEffort cgroup's CFS quota averaged over the window.
 *
 * @param nodeCores busy cores of the node (user, nice, system, irq, softirq, steal)
 * @param podsCores the {@code kubepods} cgroup
 * @param bestEffortCores the {@code kubepods/besteffort} cgroup
 * @param serviceCores the service pod's cgroup
 * @param batchCores the batch pod's cgroup
 * @param bestEffortQuotaUs the BestEffort cgroup's mean quota per 100 ms period
 */
record CpuWindow(
    double nodeCores, double podsCores, double bestEffortCores, double serviceCores, double batchCores,
    double bestEffortQuotaUs) {
  /** The least CFS quota koordlet gives best-effort pods: 2 ms per 100 ms period. */
  static final long MIN_BEST_EFFORT_QUOTA_US = 2_000;
  private static final Duration QUOTA_POLL = Duration.ofMillis(200);

  /** Measures for {@code length}; the pods are given by their kubelet cgroup paths. */
  static CpuWindow measure(Duration length, String servicePod, String batchPod) throws InterruptedException {
    List<String> cgroups = List.of("", "besteffort", servicePod, batchPod);
    long[] startNanos = cgroups.stream().mapToLong(CpuWindow::cpuNanos).toArray();
    long[] startStat = procStat();
    long startWall = System.nanoTime();
    double quotaSum = 0;
    int quotaSamples = 0;
    while (System.nanoTime() - startWall < length.toNanos()) {
      quotaSum += currentBestEffortQuotaUs();
      quotaSamples++;
      Thread.sleep(QUOTA_POLL.toMillis());
    }
    long wall = System.nanoTime() - startWall;
    long[] endStat = procStat();
    double[] cores = new double[cgroups.size()];
    for (int i = 0; i < cores.length; i++) {
      cores[i] = (double) (cpuNanos(cgroups.get(i)) - startNanos[i]) / wall;
    }
    double nodeCores = (double) (endStat[0] - startStat[0]) / (endStat[1] - startStat[1]) * endStat[2];
    return new CpuWindow(nodeCores, cores[0], cores[1], cores[2], cores[3], quotaSum / quotaSamples);
  }

  /**
   * The BestEffort quota Koordinator's suppress formula gives for these figures, in µs per 100 ms:
   * capacity · threshold − non-BE pods − max(system, reserved), at least 2 ms.
   */
  long expectedQuotaUs(long capacityMilli, long thresholdPercent, long reservedMilli) {
    double nonBestEffort = (podsCores - bestEffortCores) * 1000;
    double system = Math.max(systemCores() * 1000, reservedMilli);
    double suppressMilli = capacityMilli * thresholdPercent / 100.0 - nonBestEffort - system;
    return Math.max(Math.round(suppressMilli * 100), MIN_BEST_EFFORT_QUOTA_US);
  }

  /** What the node uses outside pods: the system and, on a shared machine, its other tenants. */
  double systemCores() {
    return nodeCores - podsCores;
  }

  /** The cores the batch pod could have had: those it used and those no one used. */
  double roomForBatchCores(double capacityCores) {
    return capacityCores - (nodeCores - batchCores);
  }

  @Override
  public String toString() {
    return String.format(
        "node %.2f cores, pods %.2f, BestEffort %.2f, service %.2f, batch %.2f; BE quota %.0f us",
        nodeCores, podsCores, bestEffortCores, serviceCores, batchCores, bestEffortQuotaUs);
  }

  /** The BestEffort QoS cgroup's CFS quota in µs per 100 ms period; -1 when unlimited. */
  static long currentBestEffortQuotaUs() {
    if (RealNode.cgroupV2()) {
      String max = RealNode.read(RealNode.cgroup("cpu", "besteffort").resolve("cpu.max")).split(" ")[0];
      return max.equals("max") ? -1 : Long.parseLong(max);
    }
    return Long.parseLong(RealNode.read(RealNode.cgroup("cpu", "besteffort").resolve("cpu.cfs_quota_us")));
  }

  /** CPU time of a kubelet cgroup in nanoseconds (v1 cpuacct, v2 cpu.stat). */
  static long cpuNanos(String kubeletPath) {
    if (RealNode.cgroupV2()) {
      try {
        return Files.readAllLines(RealNode.cgroup("cpu", kubeletPath).resolve("cpu.stat")).stream()
            .filter(line -> line.startsWith("usage_usec "))
            .mapToLong(line -> Long.parseLong(line.substring("usage_usec ".length()).trim()) * 1000)
            .findFirst().orElseThrow();
      } catch (java.io.IOException e) {
        throw new IllegalStateException("cannot read cpu.stat of " + kubeletPath, e);
      }
    }
    return Long.parseLong(RealNode.read(RealNode.cgroup("cpuacct", kubeletPath).resolve("cpuacct.usage")));
  }

  /** busy and total jiffies of all CPUs, and the number of CPUs. */
  private static long[] procStat() {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
      String[] fields = lines.get(0).trim().split("\\s+");
      long[] v = new long[8];
      for (int i = 0; i < v.length; i++) {
        v[i] = Long.parseLong(fields[i + 1]);
      }
      long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
      long cpus = lines.stream().filter(line -> line.matches("cpu\\d+ .*")).count();
      return new long[] {busy, busy + v[3] + v[4], cpus};
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot read /proc/stat", e);
    }
  }
}
