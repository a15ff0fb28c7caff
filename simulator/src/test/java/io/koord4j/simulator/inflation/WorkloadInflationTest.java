package io.koord4j.simulator.inflation;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.simulator.GeneratedTrace;
import io.koord4j.simulator.inflation.WorkloadInflation.Run;
import io.koord4j.simulator.inflation.WorkloadInflation.Settings;
import io.koord4j.simulator.placement.Policies;
import io.koord4j.simulator.report.InflationReport;
import io.koord4j.simulator.trace.TaskSpec;
import io.koord4j.simulator.trace.TraceCsv;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadInflationTest {
  @TempDir Path dir;

  private Settings settings(long seed) throws IOException {
    return new Settings(
        TraceCsv.nodes(GeneratedTrace.nodes(dir, 12, 8)),
        TraceCsv.tasks(GeneratedTrace.tasks(dir, 400, 7)).stream().map(TaskSpec::shape).toList(),
        3,
        seed,
        100);
  }

  @Test
  void aSeedGivesTheSameCurvesAndEveryPolicyTheSameArrivals() throws IOException {
    List<Run> first = WorkloadInflation.runAll(settings(5), Policies.NAMES, 2);
    List<Run> again = WorkloadInflation.runAll(settings(5), Policies.NAMES, 1);

    assertThat(first).hasSize(Policies.NAMES.size() * 3);
    for (int i = 0; i < first.size(); i++) {
      assertThat(again.get(i).unallocatedPercent()).containsExactly(first.get(i).unallocatedPercent());
    }
    for (int repetition = 0; repetition < 3; repetition++) {
      int r = repetition;
      assertThat(first.stream().filter(run -> run.repetition() == r).map(Run::arrivedTasks).distinct())
          .hasSize(1);
    }
  }

  @Test
  void unallocatedGpusFallAsDemandArrivesAndFragmentationAwarePoliciesLeaveFewest() throws IOException {
    List<Run> runs = WorkloadInflation.runAll(settings(11), Policies.NAMES, 2);
    InflationReport report = new InflationReport(runs, 12 * 8 + 8 * 2);

    for (Run run : runs) {
      assertThat(run.unallocatedPercent()[0]).isEqualTo(100);
      assertThat(run.unallocatedPercent()[50]).isLessThan(60);
    }
    double fgd = saturation(report, "fgd");
    assertThat(saturation(report, "koord4j")).isLessThanOrEqualTo(saturation(report, "random"));
    assertThat(fgd).isLessThanOrEqualTo(saturation(report, "random"));
    assertThat(fgd).isLessThanOrEqualTo(saturation(report, "gpuclustering"));
  }

  @Test
  void theReportHasATableACsvAndAChart() throws IOException {
    List<Run> runs = WorkloadInflation.runAll(settings(3), List.of("fgd", "bestfit"), 2);
    InflationReport report = new InflationReport(runs, 112);

    report.write(dir.resolve("out"), "# test");

    assertThat(Files.readString(dir.resolve("out/report.md")))
        .contains("| policy | unallocated GPU % at 100 % arrived", "| fgd |", "| bestfit |", "inflation.png");
    assertThat(Files.readAllLines(dir.resolve("out/inflation.csv")))
        .hasSize(1 + 2 * 101)
        .first().isEqualTo("policy,arrived_gpu_percent,unallocated_gpu_percent");
    byte[] png = Files.readAllBytes(dir.resolve("out/inflation.png"));
    assertThat(png).hasSizeGreaterThan(1000);
    assertThat(new String(png, 1, 3)).isEqualTo("PNG");
  }

  private static double saturation(InflationReport report, String policy) {
    return report.summaries().stream().filter(s -> s.policy().equals(policy)).findFirst().orElseThrow().atSaturation();
  }
}
