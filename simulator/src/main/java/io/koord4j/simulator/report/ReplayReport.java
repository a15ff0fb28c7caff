package io.koord4j.simulator.report;

import io.koord4j.simulator.replay.TraceReplay.Result;
import io.koord4j.simulator.replay.TraceReplay.TaskOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The figures of trace replays: queueing delay and completion time per queue, GPU allocation. */
public final class ReplayReport {

  /** One queue's figures under one policy; delays in seconds. */
  public record QueueFigures(
      String policy, String queue, int tasks, int neverStarted, double meanWait, long p50Wait, long p95Wait,
      double meanCompletion) {}

  private final List<Result> results;

  public ReplayReport(List<Result> results) {
    this.results = results;
  }

  public List<QueueFigures> figures() {
    return results.stream().flatMap(result -> byQueue(result).stream()).toList();
  }

  private static List<QueueFigures> byQueue(Result result) {
    Map<String, List<TaskOutcome>> queues =
        result.outcomes().stream().collect(Collectors.groupingBy(o -> o.task().queue(), TreeMap::new, Collectors.toList()));
    return queues.entrySet().stream().map(e -> figures(result.policy(), e.getKey(), e.getValue())).toList();
  }

  private static QueueFigures figures(String policy, String queue, List<TaskOutcome> outcomes) {
    List<TaskOutcome> started = outcomes.stream().filter(o -> o.start() >= 0).toList();
    long[] waits = started.stream().mapToLong(TaskOutcome::waitSeconds).sorted().toArray();
    return new QueueFigures(
        policy,
        queue,
        outcomes.size(),
        outcomes.size() - started.size(),
        started.stream().mapToLong(TaskOutcome::waitSeconds).average().orElse(0),
        percentile(waits, 50),
        percentile(waits, 95),
        started.stream().mapToLong(TaskOutcome::completionSeconds).average().orElse(0));
  }

  /** Nearest rank; 0 for no values. */
  static long percentile(long[] sorted, int percent) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  /**
   * One row per policy and queue; the last two columns are the run's: units a backfilling queue
   * reserved a start for, and how many of them started after their first reserved start.
   */
  public String table() {
    StringBuilder out = new StringBuilder(
        "| policy | queue | tasks | never started | mean wait s | p50 wait s | p95 wait s | mean completion s"
            + " | GPU allocation % | reserved | started late |\n"
            + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Result result : results) {
      for (QueueFigures q : byQueue(result)) {
        out.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %.0f | %d | %d | %.0f | %.1f | %d | %d |%n",
            q.policy(), q.queue(), q.tasks(), q.neverStarted(), q.meanWait(), q.p50Wait(), q.p95Wait(),
            q.meanCompletion(), 100 * result.gpuAllocation(), result.reservedTasks(), result.lateStarts().size()));
      }
    }
    return out.toString();
  }

  /** replay.md and replay.csv in {@code directory}. */
  public void write(Path directory, String heading) {
    StringBuilder csv = new StringBuilder("policy,queue,task,creation,start,wait_seconds,runtime_seconds\n");
    for (Result result : results) {
      for (TaskOutcome o : result.outcomes()) {
        csv.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%d,%d%n", result.policy(), o.task().queue(),
            o.task().name(), o.task().creation(), o.start(), o.start() < 0 ? -1 : o.waitSeconds(),
            o.task().runtimeSeconds()));
      }
    }
    try {
      Files.createDirectories(directory);
      Files.writeString(directory.resolve("replay.md"), heading + "\n\n" + table() + "\nPer task: `replay.csv`.\n");
      Files.writeString(directory.resolve("replay.csv"), csv);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report to " + directory + ": " + e.getMessage(), e);
    }
  }
}
