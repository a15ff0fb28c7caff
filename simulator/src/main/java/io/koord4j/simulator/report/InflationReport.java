package io.koord4j.simulator.report;

import io.koord4j.simulator.inflation.WorkloadInflation.Run;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;

/** The workload-inflation figures: a policy table, the curves as CSV, and the curves as a PNG. */
public final class InflationReport {

  /**
   * One policy's figures over its repetitions.
   *
   * @param curve mean unallocated GPU % at each arrived-demand percent
   * @param atSaturation mean unallocated GPU % when the arrived demand reached the capacity
   */
  public record PolicySummary(
      String policy, double[] curve, double atSaturation, double deviation, double failedTasks) {}

  private final List<PolicySummary> summaries;
  private final long gpuCapacity;
  private final int saturationPercent;

  public InflationReport(List<Run> runs, long gpuCapacity) {
    this.gpuCapacity = gpuCapacity;
    Map<String, List<Run>> byPolicy = new LinkedHashMap<>();
    runs.forEach(run -> byPolicy.computeIfAbsent(run.policy(), p -> new ArrayList<>()).add(run));
    int points = runs.get(0).unallocatedPercent().length;
    this.saturationPercent = Math.min(100, points - 1);
    this.summaries = byPolicy.values().stream().map(policyRuns -> summary(policyRuns, points)).toList();
  }

  private PolicySummary summary(List<Run> runs, int points) {
    double[] curve =
        IntStream.range(0, points)
            .mapToDouble(p -> runs.stream().mapToDouble(r -> r.unallocatedPercent()[p]).average().orElseThrow())
            .toArray();
    double mean = curve[saturationPercent];
    double variance =
        runs.stream().mapToDouble(r -> Math.pow(r.unallocatedPercent()[saturationPercent] - mean, 2)).sum()
            / runs.size();
    double failed = runs.stream().mapToInt(Run::failedTasks).average().orElseThrow();
    return new PolicySummary(runs.get(0).policy(), curve, mean, Math.sqrt(variance), failed);
  }

  public List<PolicySummary> summaries() {
    return summaries;
  }

  /** The policy table in Markdown, best first. */
  public String table() {
    StringBuilder out = new StringBuilder();
    out.append("| policy | unallocated GPU % at ").append(saturationPercent)
        .append(" % arrived | ± sd | unallocated GPUs | failed tasks (mean) |\n");
    out.append("|---|---:|---:|---:|---:|\n");
    summaries.stream()
        .sorted(java.util.Comparator.comparingDouble(PolicySummary::atSaturation))
        .forEach(s -> out.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.0f | %.0f |%n",
            s.policy(), s.atSaturation(), s.deviation(), s.atSaturation() * gpuCapacity / 100, s.failedTasks())));
    return out.toString();
  }

  /** report.md, inflation.csv and inflation.png in {@code directory}. */
  public void write(Path directory, String heading) {
    try {
      Files.createDirectories(directory);
      Files.writeString(directory.resolve("report.md"), heading + "\n\n" + table()
          + "\n![unallocated GPUs as demand grows](inflation.png)\n\nCurves: `inflation.csv`.\n");
      Files.writeString(directory.resolve("inflation.csv"), csv());
      BitmapEncoder.saveBitmap(chart(), directory.resolve("inflation.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report to " + directory + ": " + e.getMessage(), e);
    }
  }

  private String csv() {
    StringBuilder out = new StringBuilder("policy,arrived_gpu_percent,unallocated_gpu_percent\n");
    for (PolicySummary s : summaries) {
      for (int p = 0; p < s.curve().length; p++) {
        out.append(String.format(Locale.ROOT, "%s,%d,%.4f%n", s.policy(), p, s.curve()[p]));
      }
    }
    return out.toString();
  }

  private XYChart chart() {
    XYChart chart =
        new XYChartBuilder()
            .width(900)
            .height(560)
            .title("Workload inflation: unallocated GPUs as demand grows")
            .xAxisTitle("arrived GPU demand (% of capacity)")
            .yAxisTitle("unallocated GPUs (% of capacity)")
            .build();
    chart.getStyler().setMarkerSize(0);
    int from = saturationPercent / 2;
    for (PolicySummary s : summaries) {
      double[] x = IntStream.rangeClosed(from, s.curve().length - 1).asDoubleStream().toArray();
      double[] y = IntStream.rangeClosed(from, s.curve().length - 1).mapToDouble(p -> s.curve()[p]).toArray();
      chart.addSeries(s.policy(), x, y).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    }
    return chart;
  }
}
