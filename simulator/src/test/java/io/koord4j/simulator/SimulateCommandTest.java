package io.koord4j.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SimulateCommandTest {
  @TempDir Path dir;

  @Test
  void inflationWritesTheReportAndRejectsUnknownPolicies() throws IOException {
    Path nodes = GeneratedTrace.nodes(dir, 4, 4);
    Path tasks = GeneratedTrace.tasks(dir, 200, 3);
    CommandLine command = new CommandLine(new SimulateCommand());
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    command.setErr(new PrintWriter(errors, true));

    int ok = command.execute("inflation", "--nodes", nodes.toString(), "--tasks", tasks.toString(),
        "--repetitions", "2", "--policies", "koord4j,fgd", "--out", dir.resolve("out").toString());
    int bad = command.execute("inflation", "--nodes", nodes.toString(), "--tasks", tasks.toString(),
        "--policies", "koord4j,nope", "--out", dir.resolve("bad").toString());

    assertThat(ok).isZero();
    assertThat(dir.resolve("out/report.md")).exists();
    assertThat(dir.resolve("out/inflation.png")).exists();
    assertThat(bad).isNotZero();
    assertThat(errors.toString()).contains("unknown policy 'nope'");
  }

  @Test
  void inflationRunsAVariantOfATaskFileWithoutTimeColumnsThatReplayRefuses() throws IOException {
    Path nodes = GeneratedTrace.nodes(dir, 4, 4);
    Path tasks = withoutTimeColumns(GeneratedTrace.tasks(dir, 200, 3));
    CommandLine command = new CommandLine(new SimulateCommand());
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    command.setErr(new PrintWriter(errors, true));
    String[] inflation = {"inflation", "--nodes", nodes.toString(), "--tasks", tasks.toString(), "--repetitions", "1",
        "--policies", "bestfit", "--seed", "7", "--out", dir.resolve("out").toString(), "--variant", ""};

    inflation[inflation.length - 1] = "fractional=0.5,model=0.33";
    int ok = command.execute(inflation);
    inflation[inflation.length - 1] = "fractional=2";
    int badVariant = command.execute(inflation);
    int replay = command.execute("replay", "--nodes", nodes.toString(), "--tasks", tasks.toString(),
        "--out", dir.resolve("replay").toString());

    assertThat(ok).isZero();
    assertThat(Files.readString(dir.resolve("out/report.md")))
        .contains("200 tasks of the variant fractional=0.5,model=0.33 (fractional 0.");
    assertThat(badVariant).isNotZero();
    assertThat(replay).isNotZero();
    assertThat(errors.toString()).contains(
        "--variant: fractional '2' must be a fraction from 0 to 1",
        "tasks.csv: column creation_time is missing from the header; replay needs it");
  }

  /** The layout of the published multi-GPU variants: the first five columns alone. */
  private static Path withoutTimeColumns(Path tasks) throws IOException {
    List<String> lines = Files.readAllLines(tasks).stream()
        .map(line -> String.join(",", Arrays.copyOf(line.split(","), 5)))
        .toList();
    return Files.write(tasks, lines);
  }

  @Test
  void replayRunsAGeneratedGangTraceEachWayItIsAskedAndRejectsUnknownQueueing() throws IOException {
    CommandLine command = new CommandLine(new SimulateCommand());
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    command.setErr(new PrintWriter(errors, true));
    Path trace = dir.resolve("gangs");

    int generated = command.execute("generate-gangs", "--cluster-nodes", "4", "--jobs", "60", "--out", trace.toString());
    String[] replay = {"replay", "--nodes", trace.resolve("nodes.csv").toString(),
        "--tasks", trace.resolve("tasks.csv").toString(), "--out", dir.resolve("out").toString(), "--queueing", ""};
    replay[replay.length - 1] = "priority,backfill";
    int ok = command.execute(replay);
    replay[replay.length - 1] = "fifo";
    int bad = command.execute(replay);

    assertThat(generated).isZero();
    assertThat(ok).isZero();
    assertThat(Files.readString(dir.resolve("out/replay.md"))).contains("| koord4j | default | 60 |", "| koord4j+backfill | default | 60 |");
    assertThat(bad).isNotZero();
    assertThat(errors.toString()).contains("--queueing: 'fifo' is none of priority, block, backfill");
  }
}
