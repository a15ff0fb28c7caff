package io.koord4j.koordlet.metrics;

import io.koord4j.koordlet.files.KernelFiles;
import java.nio.file.Path;

/** The node's CPU and memory from a proc mount ({@code /proc} on the host). */
public final class ProcFiles {
  private final Path stat;
  private final Path meminfo;
  private final KernelFiles files = new KernelFiles();

  public ProcFiles(Path procRoot) {
    this.stat = procRoot.resolve("stat");
    this.meminfo = procRoot.resolve("meminfo");
  }

  public ProcFormats.CpuTimes cpuTimes() {
    return files.read(stat, ProcFormats::cpuTimes);
  }

  public ProcFormats.MemInfo memInfo() {
    return files.read(meminfo, ProcFormats::memInfo);
  }
}
