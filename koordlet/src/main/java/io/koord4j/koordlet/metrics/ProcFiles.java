package io.koord4j.koordlet.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The node's CPU and memory from a proc mount ({@code /proc} on the host). */
public final class ProcFiles {
  private final Path procRoot;

  public ProcFiles(Path procRoot) {
    this.procRoot = procRoot;
  }

  public ProcFormats.CpuTimes cpuTimes() {
    return ProcFormats.cpuTimes(read("stat"));
  }

  public ProcFormats.MemInfo memInfo() {
    return ProcFormats.memInfo(read("meminfo"));
  }

  private String read(String name) {
    Path file = procRoot.resolve(name);
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
