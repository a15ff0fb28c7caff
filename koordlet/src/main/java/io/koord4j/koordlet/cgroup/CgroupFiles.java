package io.koord4j.koordlet.cgroup;

import io.koord4j.koordlet.files.KernelFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Reads usage from, and writes limits to, the kubelet's cgroups under one layout. */
public final class CgroupFiles {
  private final CgroupLayout layout;
  /** Hierarchy roots by controller, resolved once: this class runs per pod per sample. */
  private final Map<String, Path> hierarchies = new ConcurrentHashMap<>();
  /** The files sampled every second, held open. */
  private final KernelFiles sampled = new KernelFiles();

  public CgroupFiles(CgroupLayout layout) {
    this.layout = layout;
  }

  private Path dir(String controller, String relative) {
    return CgroupNames.under(hierarchies.computeIfAbsent(controller, c -> layout.dir(c, "")), relative);
  }

  public CgroupLayout layout() {
    return layout;
  }

  /** Whether the cgroup exists (in the cpu hierarchy on v1). */
  public boolean exists(String dir) {
    return Files.isDirectory(dir("cpu", dir));
  }

  /**
   * CPU time the cgroup has used since it was created, in nanoseconds.
   *
   * @throws UncheckedIOException with a {@link java.nio.file.NoSuchFileException} cause when the
   *     cgroup does not exist
   */
  public long cpuUsageNanos(String dir) {
    if (layout.version() == CgroupVersion.V2) {
      Path file = dir("cpu", dir).resolve("cpu.stat");
      return sampled.read(file, text -> CgroupFormats.required(file.toString(), text, "usage_usec")) * 1_000;
    }
    Path file = dir("cpuacct", dir).resolve("cpuacct.usage");
    return sampled.read(file, text -> CgroupFormats.singleValue(file.toString(), text));
  }

  /** Memory in use without the page cache the kernel can drop at once (usage minus inactive file). */
  public long memoryWorkingSetBytes(String dir) {
    Path base = dir("memory", dir);
    boolean v2 = layout.version() == CgroupVersion.V2;
    Path usageFile = base.resolve(v2 ? "memory.current" : "memory.usage_in_bytes");
    Path statFile = base.resolve("memory.stat");
    String inactiveKey = v2 ? "inactive_file" : "total_inactive_file";
    long usage = sampled.read(usageFile, text -> CgroupFormats.singleValue(usageFile.toString(), text));
    Long inactiveFile = sampled.read(statFile, text -> CgroupFormats.keyedValue(statFile.toString(), text, inactiveKey));
    return Math.max(0, usage - (inactiveFile == null ? 0 : inactiveFile));
  }

  /** Closes the files held open for a cgroup that is no longer sampled. */
  public void forget(String dir) {
    for (String controller : List.of("cpu", "cpuacct", "memory")) {
      sampled.forgetUnder(dir(controller, dir));
    }
  }

  /** The CFS quota in µs per period, -1 when unlimited. */
  public long cpuQuotaUs(String dir) {
    Path base = dir("cpu", dir);
    if (layout.version() == CgroupVersion.V2) {
      return CgroupFormats.cpuMaxQuota(read(base.resolve("cpu.max")));
    }
    Path file = base.resolve("cpu.cfs_quota_us");
    return CgroupFormats.singleValue(file.toString(), read(file));
  }

  /** Sets the CFS quota in µs per {@link CgroupFormats#DEFAULT_CFS_PERIOD_US}; -1 lifts it. */
  public void writeCpuQuotaUs(String dir, long quotaUs) {
    Path base = dir("cpu", dir);
    if (layout.version() == CgroupVersion.V2) {
      write(base.resolve("cpu.max"), CgroupFormats.cpuMax(quotaUs, CgroupFormats.DEFAULT_CFS_PERIOD_US));
    } else {
      write(base.resolve("cpu.cfs_quota_us"), Long.toString(quotaUs < 0 ? CgroupFormats.UNLIMITED_QUOTA : quotaUs));
    }
  }

  /** Sets the CPU weight as v1 shares; on v2 converted to cpu.weight as the kubelet does. */
  public void writeCpuShares(String dir, long shares) {
    Path base = dir("cpu", dir);
    if (layout.version() == CgroupVersion.V2) {
      write(base.resolve("cpu.weight"), Long.toString(CgroupFormats.sharesToWeight(shares)));
    } else {
      write(base.resolve("cpu.shares"), Long.toString(shares));
    }
  }

  /** Sets the memory limit in bytes; -1 lifts it. */
  public void writeMemoryLimit(String dir, long bytes) {
    Path base = dir("memory", dir);
    if (layout.version() == CgroupVersion.V2) {
      write(base.resolve("memory.max"), bytes < 0 ? "max" : Long.toString(bytes));
    } else {
      write(base.resolve("memory.limit_in_bytes"), Long.toString(bytes));
    }
  }

  /** Reads one interface file, for values this class has no method for. */
  public String read(String controller, String dir, String file) {
    return read(dir(controller, dir).resolve(file));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static void write(Path file, String value) {
    try {
      Files.writeString(file, value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write \"" + value + "\" to " + file, e);
    }
  }
}
