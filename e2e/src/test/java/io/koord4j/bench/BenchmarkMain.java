package io.koord4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs benchmark B1 and writes {@code target/bench/B1.md}. Settings come from system properties:
 * {@code bench.units} (comma-separated pending-unit counts), {@code bench.warmups}, {@code
 * bench.iterations}, {@code bench.forks}, {@code bench.jvmArgs} (more options of the benchmark's
 * JVM, e.g. to compare compilers).
 */
public final class BenchmarkMain {

  private BenchmarkMain() {}

  public static void main(String[] args) throws RunnerException, IOException {
    String units = System.getProperty("bench.units", "1000,10000,100000");
    Options options =
        new OptionsBuilder()
            .include(AdmissionCoreBenchmark.class.getSimpleName())
            .param("pendingUnits", units.split(","))
            .warmupIterations(Integer.getInteger("bench.warmups", 2))
            .measurementIterations(Integer.getInteger("bench.iterations", 5))
            .warmupTime(TimeValue.seconds(1))
            .measurementTime(TimeValue.seconds(2))
            .forks(Integer.getInteger("bench.forks", 1))
            .jvmArgsAppend(("-Xmx2g " + System.getProperty("bench.jvmArgs", "")).strip().split("\\s+"))
            .build();
    Collection<RunResult> results = new Runner(options).run();
    Collection<String> jvmArgs = results.iterator().next().getParams().getJvmArgs();
    Path report = Path.of("target", "bench", "B1.md");
    Files.createDirectories(report.getParent());
    Files.writeString(report, markdown(results, jvmArgs));
    System.out.println("B1 report written to " + report.toAbsolutePath());
  }

  private static String markdown(Collection<RunResult> results, Collection<String> jvmArgs) {
    List<String> lines = new ArrayList<>();
    lines.add("# B1: admission core alone");
    lines.add("");
    lines.add(
        "1,000 leaf quotas in a 3-level tree, one queue per leaf, pending units of 1–16 CPUs and"
            + " priorities 0–9. `firstPass`: one pass over a fresh core that admits as much as"
            + " fits. `steadyPass`: a pass over the same core once its quotas are full, every unit"
            + " getting a wait reason and position. Times are per pass (mean ± 99.9 % error).");
    lines.add("");
    lines.add(
        "| benchmark | pending units | ms per pass | ± | decisions per second"
            + " | µs per decision |");
    lines.add("|---|---:|---:|---:|---:|---:|");
    for (RunResult result : results) {
      String benchmark = result.getParams().getBenchmark();
      int pending = Integer.parseInt(result.getParams().getParam("pendingUnits"));
      Result<?> score = result.getPrimaryResult();
      double millis = toMillis(score.getScore(), score.getScoreUnit());
      double error = toMillis(score.getScoreError(), score.getScoreUnit());
      lines.add(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %.2f | %.2f | %,.0f | %.3f |",
              benchmark.substring(benchmark.lastIndexOf('.') + 1),
              pending,
              millis,
              error,
              pending / (millis / 1000),
              millis * 1000 / pending));
    }
    lines.add("");
    lines.add("Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs, "
        + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
        + "; the benchmark's JVM options: `" + String.join(" ", jvmArgs) + "`.");
    return String.join("\n", lines) + "\n";
  }

  private static double toMillis(double value, String unit) {
    TimeUnit from =
        switch (unit) {
          case "s/op" -> TimeUnit.SECONDS;
          case "ms/op" -> TimeUnit.MILLISECONDS;
          case "us/op" -> TimeUnit.MICROSECONDS;
          case "ns/op" -> TimeUnit.NANOSECONDS;
          default -> throw new IllegalArgumentException("unexpected score unit " + unit);
        };
    return value * from.toNanos(1) / 1e6;
  }
}
