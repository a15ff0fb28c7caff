package io.koord4j.koordlet.metrics;

import io.koord4j.koordlet.files.Ascii;

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

  /** Reads the "cpu" and "cpuN" lines at the top of /proc/stat and stops at the first other line. */
  public static CpuTimes cpuTimes(CharSequence procStat) {
    long[] fields = null;
    int cpus = 0;
    int from = 0;
    while (from < procStat.length() && Ascii.startsWith(procStat, from, "cpu")) {
      int end = Ascii.lineEnd(procStat, from);
      if (Ascii.startsWith(procStat, from, "cpu ")) {
        fields = numbers(procStat, from + 4, end);
      } else {
        cpus++;
      }
      from = end + 1;
    }
    if (fields == null || fields.length < 8) {
      throw new IllegalArgumentException("/proc/stat has no \"cpu\" line with eight counters");
    }
    // user nice system idle iowait irq softirq steal [guest guest_nice, already inside user and nice]
    long idle = fields[3] + fields[4];
    long busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7];
    return new CpuTimes(busy, busy + idle, Math.max(cpus, 1));
  }

  public static MemInfo memInfo(CharSequence procMeminfo) {
    long total = -1;
    long available = -1;
    int from = 0;
    while (from < procMeminfo.length() && (total < 0 || available < 0)) {
      int end = Ascii.lineEnd(procMeminfo, from);
      if (Ascii.startsWith(procMeminfo, from, "MemTotal:")) {
        total = numbers(procMeminfo, from + "MemTotal:".length(), end)[0] * 1024;
      } else if (Ascii.startsWith(procMeminfo, from, "MemAvailable:")) {
        available = numbers(procMeminfo, from + "MemAvailable:".length(), end)[0] * 1024;
      }
      from = end + 1;
    }
    if (total < 0 || available < 0) {
      throw new IllegalArgumentException("/proc/meminfo needs MemTotal and MemAvailable lines");
    }
    return new MemInfo(total, available);
  }

  /** The leading whole numbers of [from, to), up to the first word that is not one (such as "kB"). */
  private static long[] numbers(CharSequence text, int from, int to) {
    long[] values = new long[10];
    int count = 0;
    int start = Ascii.skipSpaces(text, from, to);
    while (start < to && Character.isDigit(text.charAt(start))) {
      int end = Ascii.wordEnd(text, start, to);
      if (count == values.length) {
        values = java.util.Arrays.copyOf(values, count * 2);
      }
      values[count++] = Long.parseLong(text, start, end, 10);
      start = Ascii.skipSpaces(text, end, to);
    }
    return java.util.Arrays.copyOf(values, count);
  }
}
