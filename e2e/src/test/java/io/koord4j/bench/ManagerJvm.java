package io.koord4j.bench;

import io.koord4j.manager.ManagerMain;
import io.koord4j.testing.JavaProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * koord4j's manager as a JVM of its own with a chosen maximum heap, so that its memory is its own:
 * the resident set from {@code /proc/<pid>/status}, the heap from {@code jcmd}. Its output goes to
 * {@code target/bench/logs/<name>.log}.
 */
final class ManagerJvm extends JavaProcess implements AutoCloseable {
  /** A heap's or a generation's line of {@code GC.heap_info}; a generational collector prints two. */
  private static final Pattern HEAP_USED = Pattern.compile("total (\\d+)K, used (\\d+)K");
  /**
   * A pause of the unified GC log: "[12.3s][info][gc] GC(7) Pause Young (Allocation Failure)
   * 120M->80M(400M) 12.345ms". Those caused by System.gc() are the benchmark's own.
   */
  private static final Pattern GC_PAUSE = Pattern.compile("GC\\(\\d+\\) (Pause \\w+)(.*) \\d+[KMG]->\\S+ ([\\d.]+)ms$");
  private static final String NMT_OPTION = "-XX:NativeMemoryTracking";
  /** An area's line of the NMT summary: "-  Java Heap (reserved=524288KB, committed=131072KB)". */
  private static final Pattern NMT_AREA = Pattern.compile("(?m)^-\\s+(.+?) \\(reserved=\\d+KB, committed=(\\d+)KB\\)");

  private final int httpPort;

  private final Path gcLog;
  private final boolean tracksNativeMemory;

  private ManagerJvm(JavaProcess started, int httpPort, Path gcLog, boolean tracksNativeMemory) {
    super(started);
    this.httpPort = httpPort;
    this.gcLog = gcLog;
    this.tracksNativeMemory = tracksNativeMemory;
  }

  /**
   * One way to run the manager: its JVM options and more environment settings.
   *
   * @param javaOptions e.g. the collector
   * @param environment e.g. {@code MALLOC_ARENA_MAX}
   */
  record Config(List<String> javaOptions, Map<String, String> environment) {
    /**
     * The chart's options and extra environment of the manager (as deployed), or the JVM options
     * of {@code -Dbench.manager.javaOptions} to compare others.
     */
    static Config chosen() {
      Config chart = new Config(ChartJvmOptions.of("manager"), ChartJvmOptions.environment("manager"));
      String chosen = System.getProperty("bench.manager.javaOptions");
      return chosen == null || chosen.isBlank() ? chart : parse(chosen);
    }

    /**
     * A configuration written as the JVM's options and {@code NAME=value} environment settings,
     * separated by spaces, e.g. {@code "-XX:+UseSerialGC MALLOC_ARENA_MAX=2"}.
     */
    static Config parse(String text) {
      List<String> options = new ArrayList<>();
      Map<String, String> environment = new TreeMap<>();
      for (String token : text.trim().split("\\s+")) {
        int equals = token.indexOf('=');
        if (token.startsWith("-")) {
          options.add(token);
        } else if (equals > 0) {
          environment.put(token.substring(0, equals), token.substring(equals + 1));
        } else if (!token.isEmpty()) {
          throw new IllegalArgumentException(
              "\"" + token + "\" in \"" + text + "\" is neither a JVM option (-...) nor NAME=value");
        }
      }
      return new Config(List.copyOf(options), Map.copyOf(environment));
    }

    /** As {@link #parse} reads it. */
    @Override
    public String toString() {
      List<String> tokens = new ArrayList<>(javaOptions);
      new TreeMap<>(environment).forEach((name, value) -> tokens.add(name + "=" + value));
      return String.join(" ", tokens);
    }
  }

  /**
   * @param namespace the manager's own namespace, where its Lease lives
   * @param name its Lease, identity and log name
   * @param config its JVM options and environment
   * @param maxHeap the JVM's {@code -Xmx}, e.g. {@code 512m}
   * @param settings more of the manager's environment settings
   */
  static ManagerJvm start(String namespace, String name, Config config, String maxHeap, Map<String, String> settings)
      throws IOException {
    int port = freePort();
    Map<String, String> environment = new HashMap<>(config.environment());
    environment.putAll(settings);
    environment.putAll(Map.of(
        "KOORD4J_NAMESPACE", namespace,
        "KOORD4J_LEASE_NAME", name,
        "KOORD4J_LEASE_IDENTITY", name,
        "KOORD4J_HTTP_PORT", Integer.toString(port)));
    JavaProcess started =
        JavaProcess.start(
            ManagerMain.class.getName(),
            jvmOptions(config, maxHeap, name),
            environment,
            Path.of("target", "bench", "logs", name + ".log"));
    return new ManagerJvm(started, port, gcLog(name), tracksNativeMemory(config));
  }

  /**
   * The configuration's JVM options with the heap capped, its pauses logged and its memory
   * tracked, unless it says otherwise: tracking costs resident memory of its own.
   */
  private static List<String> jvmOptions(Config config, String maxHeap, String name) {
    List<String> options = new ArrayList<>(config.javaOptions());
    options.add("-Xmx" + maxHeap);
    if (config.javaOptions().stream().noneMatch(option -> option.startsWith(NMT_OPTION))) {
      options.add(NMT_OPTION + "=summary");
    }
    options.add("-Xlog:gc:file=" + gcLog(name));
    return options;
  }

  private static boolean tracksNativeMemory(Config config) {
    return !config.javaOptions().contains(NMT_OPTION + "=off");
  }

  private static Path gcLog(String name) {
    return Path.of("target", "bench", "logs", name + "-gc.log");
  }

  /** Its {@code /metrics}. */
  PrometheusText metrics() throws IOException, InterruptedException {
    checkAlive();
    return PrometheusText.scrape(httpPort);
  }

  /** The first group of the last log line {@code pattern} finds, if any. */
  String lastLogged(Pattern pattern) throws IOException {
    String found = null;
    for (String line : Files.readAllLines(log())) {
      Matcher matcher = pattern.matcher(line);
      if (matcher.find()) {
        found = matcher.group(1);
      }
    }
    return found;
  }

  /** A full collection ({@code jcmd GC.run}). */
  void fullGc() throws IOException, InterruptedException {
    jcmd("GC.run");
  }

  /** Heap used and committed, in KiB, as {@code jcmd GC.heap_info} says (all generations). */
  long[] heapKiB() throws IOException, InterruptedException {
    Matcher matcher = HEAP_USED.matcher(jcmd("GC.heap_info"));
    long[] usedAndCommitted = new long[2];
    while (matcher.find()) {
      usedAndCommitted[0] += Long.parseLong(matcher.group(2));
      usedAndCommitted[1] += Long.parseLong(matcher.group(1));
    }
    if (usedAndCommitted[1] == 0) {
      throw new IllegalStateException("unexpected GC.heap_info output");
    }
    return usedAndCommitted;
  }

  /**
   * The pauses the collector made on its own so far, by kind, as Markdown table rows: count,
   * longest and total milliseconds. The full collections the benchmark asks for are left out.
   */
  List<String> gcPauses() throws IOException {
    Map<String, DoubleSummaryStatistics> byKind = new TreeMap<>();
    for (String line : Files.readAllLines(gcLog)) {
      Matcher matcher = GC_PAUSE.matcher(line);
      if (matcher.find() && !matcher.group(2).contains("(System.gc())")) {
        byKind.computeIfAbsent(matcher.group(1), kind -> new DoubleSummaryStatistics())
            .accept(Double.parseDouble(matcher.group(3)));
      }
    }
    return byKind.entrySet().stream()
        .map(kind -> String.format(Locale.ROOT, "| %s | %d | %.1f | %.0f |", kind.getKey(),
            kind.getValue().getCount(), kind.getValue().getMax(), kind.getValue().getSum()))
        .toList();
  }

  /** The classes holding the most heap ({@code jcmd GC.class_histogram}), header included. */
  List<String> classHistogram(int top) throws IOException, InterruptedException {
    return jcmd("GC.class_histogram").lines().skip(1).limit(top + 2L).toList();
  }

  /**
   * The JVM's committed memory by area, largest first, as Markdown table rows in MiB
   * ({@code jcmd VM.native_memory summary}): where the resident set goes besides the heap. None
   * when its options turned tracking off.
   */
  List<String> committedByArea() throws IOException, InterruptedException {
    if (!tracksNativeMemory) {
      return List.of();
    }
    Map<String, Long> committedKiB = new LinkedHashMap<>();
    Matcher matcher = NMT_AREA.matcher(jcmd("VM.native_memory summary"));
    while (matcher.find()) {
      committedKiB.put(matcher.group(1).trim(), Long.parseLong(matcher.group(2)));
    }
    return committedKiB.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .map(area -> String.format(Locale.ROOT, "| %s | %.1f |", area.getKey(), area.getValue() / 1024.0))
        .toList();
  }

  /** A field of {@code /proc/<pid>/status} in KiB, e.g. {@code VmRSS} or {@code VmHWM}. */
  long procStatusKiB(String field) throws IOException {
    checkAlive();
    return Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status")).stream()
        .filter(line -> line.startsWith(field + ":"))
        .map(line -> Long.parseLong(line.replaceAll("\\D", "")))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no " + field + " in /proc status"));
  }

  void checkAlive() {
    if (!isAlive()) {
      throw new IllegalStateException("the manager exited; see " + log().toAbsolutePath());
    }
  }

  private String jcmd(String command) throws IOException, InterruptedException {
    checkAlive();
    Process jcmd =
        new ProcessBuilder(javaTool("jcmd"), Long.toString(pid()), command).redirectErrorStream(true).start();
    String output = new String(jcmd.getInputStream().readAllBytes());
    if (jcmd.waitFor() != 0) {
      throw new IllegalStateException("jcmd " + command + " failed: " + output);
    }
    return output;
  }

  /** A clean stop (SIGTERM): it releases its Lease. */
  @Override
  public void close() throws InterruptedException {
    stop();
  }

  private static String javaTool(String name) {
    return Path.of(System.getProperty("java.home"), "bin", name).toString();
  }

}
