package io.koord4j.koordlet.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Real cgroups owned by one test: a parent {@code koord4j-test-<id>} in each hierarchy under which
 * the test builds a kubelet-shaped tree, and CPU-burning processes moved into it. {@link #close}
 * kills the processes and removes every cgroup it made.
 */
public final class RealCgroups implements AutoCloseable {
  private static final List<String> V1_CONTROLLERS = List.of("cpu", "cpuacct", "memory");

  private final CgroupLayout layout;
  private final String parent;
  private final List<Path> created = new ArrayList<>();
  private final List<Process> processes = new ArrayList<>();

  private RealCgroups(CgroupLayout layout, String parent) {
    this.layout = layout;
    this.parent = parent;
  }

  /** The v1 hierarchies under {@code /sys/fs/cgroup}; fails, saying why, where they cannot be written. */
  public static RealCgroups v1() {
    Path root = Path.of("/sys/fs/cgroup");
    for (String controller : V1_CONTROLLERS) {
      requireWritable(root.resolve(controller), "the cgroup v1 " + controller + " hierarchy");
    }
    return create(root);
  }

  /** A cgroup2 mount (the root on v2 hosts, {@code /sys/fs/cgroup/unified} on hybrid ones). */
  public static RealCgroups v2() {
    Path mount = cgroup2Mount().orElseThrow(() -> new IllegalStateException(
        "this machine has no cgroup2 mount; the v2 layout is covered by CgroupFilesTest's fixture tree"));
    requireWritable(mount, "the cgroup2 mount " + mount);
    return create(mount);
  }

  private static RealCgroups create(Path root) {
    String parent = "koord4j-test-" + UUID.randomUUID().toString().substring(0, 8);
    CgroupLayout layout = CgroupLayout.detect(root, CgroupDriver.CGROUPFS, parent + "/kubepods");
    return new RealCgroups(layout, parent);
  }

  static Optional<Path> cgroup2Mount() {
    try {
      return Files.readAllLines(Path.of("/proc/self/mounts")).stream()
          .map(line -> line.split(" "))
          .filter(fields -> fields.length > 2 && fields[2].equals("cgroup2"))
          .map(fields -> Path.of(fields[1]))
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static void requireWritable(Path dir, String what) {
    if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
      throw new IllegalStateException(
          what + " (" + dir + ") is not writable: this test creates real cgroups, so run it as root"
              + " on a Linux host with cgroups mounted under /sys/fs/cgroup");
    }
  }

  public CgroupLayout layout() {
    return layout;
  }

  /** Creates a relative cgroup (and its parents) in every hierarchy the layout reads. */
  public void mkdirs(String relative) throws IOException {
    for (Path hierarchy : hierarchies()) {
      Path current = hierarchy;
      for (String part : relative.split("/")) {
        current = current.resolve(part);
        if (!Files.isDirectory(current)) {
          Files.createDirectory(current);
          created.add(current);
        }
      }
    }
  }

  /** Starts a process that burns one CPU and moves it into the cgroup in every hierarchy. */
  public Process burnCpuIn(String relative) throws IOException {
    return burnCpuIn(relative, 0);
  }

  /**
   * Starts a process that, once moved into the cgroup, fills {@code memoryMiB} of its own memory
   * (charged to the cgroup) and then burns one CPU.
   */
  public Process burnCpuIn(String relative, int memoryMiB) throws IOException {
    String fill = memoryMiB == 0 ? "" : "sleep 0.3; m=$(head -c " + memoryMiB + "M /dev/zero | tr '\\0' x); ";
    Process process = new ProcessBuilder("sh", "-c", fill + "while :; do :; done").start();
    processes.add(process);
    for (Path hierarchy : hierarchies()) {
      Files.writeString(hierarchy.resolve(relative).resolve("cgroup.procs"), Long.toString(process.pid()));
    }
    return process;
  }

  /** CPU time (user plus system) the process has used, in nanoseconds, from /proc/<pid>/stat. */
  public static long processCpuNanos(Process process) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
    return ticks * 10_000_000L; // USER_HZ is 100 on Linux
  }

  private List<Path> hierarchies() {
    if (layout.version() == CgroupVersion.V2) {
      return List.of(layout.root());
    }
    return V1_CONTROLLERS.stream().map(controller -> layout.dir(controller, "")).toList();
  }

  @Override
  public void close() throws Exception {
    for (Process process : processes) {
      process.destroyForcibly().waitFor();
    }
    Thread.sleep(100); // the kernel empties a cgroup shortly after its last task exits
    created.sort(Comparator.comparingInt(Path::getNameCount).reversed());
    for (Path dir : created) {
      Files.deleteIfExists(dir);
    }
    if (!parent.isEmpty() && created.stream().anyMatch(Files::exists)) {
      throw new IllegalStateException("could not remove test cgroups " + created);
    }
  }
}
