package io.koord4j.koordlet.metrics;

/** Parsers of {@code /proc/stat} and {@code /proc/meminfo}; no I/O. */
public final class ProcFormats {
  private ProcFormats() {}

  /**
   * CPU time of the whole node in clock ticks since boot.
   *
   * @param busy user, nice, system, irq, softirq and steal
   * @param total busy plus idle and iowait
   * @param cpus the number of {@code cpuN} lines
   */
  public record CpuTimes(long busy, long total, int cpus) {
    /** Cores in use between an earlier sample and this one. */
    public double coresSince(CpuTimes earlier) {
      long totalDelta = total - earlier.total;
      return totalDelta <= 0 ? 0 : (double) (busy - earlier.busy) / totalDelta * cpus;
    }
  }

  /** Node memory in bytes; used excludes the page cache, as MemTotal minus MemAvailable. */
  public record MemInfo(long totalBytes, long availableBytes) {
    public long usedBytes() {
      return totalBytes - availableBytes;
    }
  }

  public static CpuTimes cpuTimes(String procStat) {
    long[] fields = null;
    int cpus = 0;
    for (String line : procStat.split("\n")) {
      if (line.startsWith("cpu ")) {
        fields = numbers(line.substring(4));
      } else if (line.startsWith("cpu")) {
        cpus++;
      }
    }
    if (fields == null || fields.length < 8) {
      throw new IllegalArgumentException("/proc/stat has no \"cpu\" line with eight counters");
    }
    // user nice system idle iowait irq softirq steal [guest guest_nice, already inside user and nice]
    long idle = fields[3] + fields[4];
    long busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7];
    return new CpuTimes(busy, busy + idle, Math.max(cpus, 1));
  }

  public static MemInfo memInfo(String procMeminfo) {
    long total = -1;
    long available = -1;
    for (String line : procMeminfo.split("\n")) {
      if (line.startsWith("MemTotal:")) {
        total = kilobytes(line) * 1024;
      } else if (line.startsWith("MemAvailable:")) {
        available = kilobytes(line) * 1024;
      }
    }
    if (total < 0 || available < 0) {
      throw new IllegalArgumentException("/proc/meminfo needs MemTotal and MemAvailable lines");
    }
    return new MemInfo(total, available);
  }

  private static long kilobytes(String line) {
    String[] parts = line.trim().split("\\s+");
    return Long.parseLong(parts[1]);
  }

  private static long[] numbers(String text) {
    String[] parts = text.trim().split("\\s+");
    long[] values = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      values[i] = Long.parseLong(parts[i]);
    }
    return values;
  }
}
