package io.koord4j.koordlet;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.koordlet.cgroup.CgroupFiles;
import io.koord4j.koordlet.cgroup.KubeQos;
import io.koord4j.koordlet.cgroup.RealCgroups;
import io.koord4j.koordlet.metrics.PodRef;
import io.koord4j.koordlet.metrics.ProcFiles;
import io.koord4j.koordlet.metrics.UsageCollector;
import io.koord4j.koordlet.report.CollectPolicy;
import io.koord4j.koordlet.report.NodeMetricStatuses;
import io.koord4j.testing.TestPods;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * koordlet's own CPU and memory while it samples 100 pods' real cgroups every second and builds
 * the NodeMetric status as it would report it. Not a test: run it (as root) with {@code mvn -B -pl
 * koordlet -am test -Dexec.skip -Dtest=KoordletFootprintBench -Dsurefire.failIfNoSpecifiedTests=false
 * -DargLine="-Xmx48m -Xss512k -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=32m
 * -XX:MaxMetaspaceSize=96m"} (the JVM options the koordlet container uses); it writes {@code
 * e2e/target/bench/koordlet-footprint.md}. The figures include the test JVM's own baseline, so they
 * are an upper bound.
 */
class KoordletFootprintBench {
  private static final int PODS = Integer.getInteger("bench.pods", 100);
  private static final Duration RUN = Duration.ofSeconds(Long.getLong("bench.seconds", 60));
  private static final Duration WARM_UP = Duration.ofSeconds(10);

  @Test
  void collectHundredPodsEverySecond() throws Exception {
    try (RealCgroups cgroups = RealCgroups.v1()) {
      List<PodRef> refs = new ArrayList<>();
      List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < PODS; i++) {
        String uid = UUID.randomUUID().toString();
        KubeQos qos = i % 3 == 0 ? KubeQos.BEST_EFFORT : KubeQos.BURSTABLE;
        String dir = cgroups.layout().podDir(qos, uid);
        cgroups.mkdirs(dir);
        Pod pod = TestPods.pod("pod-" + i, null, qos == KubeQos.BEST_EFFORT ? Map.of() : Map.of("cpu", "100m"), Map.of());
        pod.getMetadata().setUid(uid);
        pods.add(pod);
        refs.add(new PodRef(uid, "default", "pod-" + i, qos));
      }
      CollectPolicy policy = CollectPolicy.DEFAULT;
      UsageCollector collector = new UsageCollector(new ProcFiles(Path.of("/proc")), new CgroupFiles(cgroups.layout()),
          Clock.systemUTC(), System::nanoTime, (int) policy.longestWindow().toSeconds(), (int) policy.aggregateDuration().toSeconds());

      loop(collector, refs, pods, WARM_UP);
      long cpuBefore = cpuNanos();
      Map<String, long[]> threadsBefore = threadTicks();
      long start = System.nanoTime();
      loop(collector, refs, pods, RUN);
      double seconds = (System.nanoTime() - start) / 1e9;
      double corePercent = (cpuNanos() - cpuBefore) / 1e9 / seconds * 100;
      long rssMib = rssKib() / 1024;
      report(corePercent, rssMib, seconds, threadBreakdown(threadsBefore, threadTicks(), seconds));
    }
  }

  private static void loop(UsageCollector collector, List<PodRef> refs, List<Pod> pods, Duration duration) throws Exception {
    long end = System.nanoTime() + duration.toNanos();
    int round = 0;
    while (System.nanoTime() < end) {
      collector.collect(refs);
      if (++round % 10 == 0) {
        collector.nodeAverage(Duration.ofMinutes(5)).ifPresent(node -> NodeMetricStatuses.build(
            Clock.systemUTC().instant(),
            new NodeMetricStatuses.Measured(node, List.of(), collector.podsAverage(Duration.ofMinutes(5))),
            pods));
      }
      Thread.sleep(1_000);
    }
  }

  private static long cpuNanos() {
    return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
  }

  private static long rssKib() throws IOException {
    return Files.readAllLines(Path.of("/proc/self/status")).stream()
        .filter(line -> line.startsWith("VmRSS:"))
        .mapToLong(line -> Long.parseLong(line.replaceAll("\\D", "")))
        .findFirst().orElseThrow();
  }

  /** User and system clock ticks of each thread by name (threads of one name summed), from /proc. */
  private static Map<String, long[]> threadTicks() throws IOException {
    Map<String, long[]> ticks = new java.util.TreeMap<>();
    try (var tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException gone) {
          continue;
        }
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("\\d+$", "N");
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long[] sum = ticks.computeIfAbsent(name, n -> new long[2]);
        sum[0] += Long.parseLong(fields[11]);
        sum[1] += Long.parseLong(fields[12]);
      }
    }
    return ticks;
  }

  /** Rows "| thread | user % | system % |" of the threads that used CPU during the run, busiest first. */
  private static String threadBreakdown(Map<String, long[]> before, Map<String, long[]> after, double seconds) {
    double ticksPerSecond = 100; // USER_HZ on Linux
    StringBuilder rows = new StringBuilder();
    after.entrySet().stream()
        .map(e -> {
          long[] old = before.getOrDefault(e.getKey(), new long[2]);
          return Map.entry(e.getKey(), new long[] {e.getValue()[0] - old[0], e.getValue()[1] - old[1]});
        })
        .filter(e -> e.getValue()[0] + e.getValue()[1] > 0)
        .sorted((a, b) -> Long.compare(b.getValue()[0] + b.getValue()[1], a.getValue()[0] + a.getValue()[1]))
        .forEach(e -> rows.append(String.format("| %s | %.2f | %.2f |%n", e.getKey(),
            e.getValue()[0] / ticksPerSecond / seconds * 100, e.getValue()[1] / ticksPerSecond / seconds * 100)));
    return rows.toString();
  }

  private static void report(double corePercent, long rssMib, double seconds, String threads) throws IOException {
    String text = String.format(
        "# koordlet footprint%n%n%d pods with real cgroups, collected every 1 s for %.0f s after %d s warm-up,"
            + " NodeMetric status built every 10 s.%n%n| figure | measured | goal |%n|---|---|---|%n"
            + "| CPU (%% of one core) | %.2f | < 1 |%n| RSS (MiB, whole test JVM) | %d | < 100 |%n%n"
            + "CPU by thread (%% of one core, 10 ms ticks):%n%n| thread | user | system |%n|---|---|---|%n%s",
        PODS, seconds, WARM_UP.toSeconds(), corePercent, rssMib, threads);
    Path out = io.koord4j.testing.LocalCluster.repoRoot().resolve("e2e/target/bench/koordlet-footprint.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, text);
    System.out.print(text);
  }
}
