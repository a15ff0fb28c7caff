package io.koord4j.simulator;

import io.koord4j.device.TaskClass;
import io.koord4j.simulator.inflation.WorkloadInflation;
import io.koord4j.simulator.placement.Policies;
import io.koord4j.simulator.placement.TargetWorkload;
import io.koord4j.simulator.replay.Queueing;
import io.koord4j.simulator.replay.TraceReplay;
import io.koord4j.simulator.report.ReplayReport;
import io.koord4j.simulator.report.InflationReport;
import io.koord4j.simulator.trace.GangTrace;
import io.koord4j.simulator.trace.NodeSpec;
import io.koord4j.simulator.trace.TaskShape;
import io.koord4j.simulator.trace.TaskSpec;
import io.koord4j.simulator.trace.TraceCsv;
import io.koord4j.simulator.trace.TraceVariant;
import io.koord4j.simulator.trace.VariantShare;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code koord4j simulate}: what-if runs of koord4j's placement and queueing on a trace. */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    subcommands = {SimulateCommand.Inflation.class, SimulateCommand.Replay.class, SimulateCommand.GenerateGangs.class},
    description = "Replays a cluster trace in virtual time through koord4j's core.")
public final class SimulateCommand implements Runnable {

  public static void main(String[] args) {
    System.exit(new CommandLine(new SimulateCommand()).execute(args));
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  /** Options of every subcommand: the seed and the output directory, whose default each subcommand names. */
  static class RunOptions {
    @Option(names = "--seed", defaultValue = "1", description = "Seed of every random choice (default ${DEFAULT-VALUE}).")
    long seed;

    // No defaultValue: picocli takes the field's initial value as the default.
    @Option(names = "--out", description = "Output directory (default ${DEFAULT-VALUE}).")
    Path out;

    RunOptions(String defaultOut) {
      out = Path.of(defaultOut);
    }
  }

  /** Options of the modes that run a trace: the cluster and the workload. */
  static class TraceOptions {
    @Option(names = "--nodes", required = true, description = "Nodes CSV: sn,cpu_milli,memory_mib,gpu,model")
    Path nodes;

    @Option(names = "--tasks", required = true,
        description = "Tasks CSV: name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,...,creation_time,deletion_time,scheduled_time"
            + " (replay needs creation_time; inflation reads files without time columns)")
    Path tasks;

    /** The nodes and tasks, read; and the time reading started, for the report. */
    record Loaded<T>(List<NodeSpec> nodes, List<T> tasks, long startNanos) {
      /** Seconds since reading started: the run's duration in the report's heading. */
      double seconds() {
        return (System.nanoTime() - startNanos) / 1e9;
      }
    }

    /** The nodes, and the tasks as {@code reader} reads them: with their times or without. */
    <T> Loaded<T> load(Function<Path, List<T>> reader) {
      long start = System.nanoTime();
      return new Loaded<>(TraceCsv.nodes(nodes), reader.apply(tasks), start);
    }
  }

  /** Prints a run's heading and table and where its report is; the exit status. */
  private static int printed(String heading, String table, Path report) {
    System.out.println(heading.replace("# ", "") + "\n");
    System.out.println(table);
    System.out.println("report: " + report);
    return 0;
  }

  private static List<String> items(String commaSeparated) {
    return Arrays.stream(commaSeparated.split(",")).map(String::trim).toList();
  }

  /** A mode that runs placement policies over a trace; each mode names the policies it runs by default. */
  abstract static class PolicyRun implements Callable<Integer> {
    @CommandLine.Mixin TraceOptions trace;
    @CommandLine.Mixin RunOptions run = new RunOptions("simulation");

    // No defaultValue: picocli takes the field's initial value as the default.
    @Option(names = "--policies", description = "Comma-separated placement policies (default ${DEFAULT-VALUE}).")
    String policies;

    PolicyRun(String defaultPolicies) {
      policies = defaultPolicies;
    }

    List<String> policyNames() {
      return items(policies);
    }
  }

  @Command(name = "inflation", mixinStandardHelpOptions = true,
      description = "Workload inflation: unallocated GPUs per placement policy as random tasks of the trace arrive.")
  static final class Inflation extends PolicyRun {
    Inflation() {
      super("koord4j,fgd,bestfit,dotprod,gpupacking,gpuclustering,random");
    }

    @Option(names = "--repetitions", defaultValue = "10", description = "Draws of the workload (default ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = "--up-to", defaultValue = "100",
        description = "Stop when the arrived GPU demand reaches this percent of the capacity (default ${DEFAULT-VALUE}).")
    int upTo;

    @Option(names = "--threads", description = "Parallel runs (default: the number of processors).")
    Integer threads;

    @Option(names = "--variant", paramLabel = "share=fraction[,...]",
        description = "Draw the tasks anew from the trace's own, with these shares: fractional (GPU demand of"
            + " tasks on a share of one GPU), multi-gpu (GPU demand of tasks of 2+ GPUs), model (GPU tasks bound"
            + " to a GPU model of the nodes, drawn by their GPUs), cpu-only (tasks without GPUs), each a"
            + " fraction from 0 to 1. A model or cpu-only share not given stays as in the trace; the GPU demand"
            + " that fractional and multi-gpu leave goes to the other GPU tasks as in the trace. Follows --seed.")
    String variant;

    @Override
    public Integer call() {
      TraceOptions.Loaded<TaskShape> loaded = trace.load(TraceCsv::taskShapes);
      List<NodeSpec> nodes = loaded.nodes();
      List<TaskShape> tasks = variant == null
          ? loaded.tasks()
          : TraceVariant.parse(variant).generate(loaded.tasks(), nodes, run.seed);
      var settings = new WorkloadInflation.Settings(nodes, tasks, repetitions, run.seed, upTo);
      int parallel = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
      var runs = WorkloadInflation.runAll(settings, policyNames(), parallel);
      long gpus = nodes.stream().mapToLong(NodeSpec::gpus).sum();
      InflationReport report = new InflationReport(runs, gpus);
      String heading = String.format(Locale.ROOT,
          "# Workload inflation%n%n%d nodes, %d GPUs, %d %s (%s); %d repetitions, seed %d; %.1f s",
          nodes.size(), gpus, tasks.size(), variant == null ? "trace tasks" : "tasks of the variant " + variant,
          VariantShare.describe(tasks), repetitions, run.seed, loaded.seconds());
      report.write(run.out, heading);
      return printed(heading, report.table(), run.out.resolve("report.md"));
    }
  }

  @Command(name = "replay", mixinStandardHelpOptions = true,
      description = "Replays the trace in virtual time through the admission core and a placement policy.")
  static final class Replay extends PolicyRun {
    Replay() {
      super("koord4j");
    }

    @Option(names = "--queueing", defaultValue = "priority",
        description = "Comma-separated queue behaviours to run each policy with: priority, block, backfill"
            + " (Priority with backfill) (default ${DEFAULT-VALUE}).")
    String queueing;

    @Override
    public Integer call() {
      TraceOptions.Loaded<TaskSpec> loaded = trace.load(TraceCsv::tasks);
      List<NodeSpec> nodes = loaded.nodes();
      List<TaskSpec> tasks = loaded.tasks();
      List<TaskClass> workload = TargetWorkload.of(tasks.stream().map(TaskSpec::shape).toList());
      List<Queueing> queueings = items(queueing).stream().map(Queueing::parse).toList();
      List<TraceReplay.Result> results =
          policyNames().stream()
              .flatMap(name -> queueings.stream()
                  .map(q -> new TraceReplay(nodes, Policies.create(name, workload), run.seed, q).run(tasks)))
              .toList();
      ReplayReport report = new ReplayReport(results);
      String heading = String.format(Locale.ROOT,
          "# Trace replay%n%n%d nodes, %d tasks; seed %d; %.1f s",
          nodes.size(), tasks.size(), run.seed, loaded.seconds());
      report.write(run.out, heading);
      return printed(heading, report.table(), run.out.resolve("replay.md"));
    }
  }

  @Command(name = "generate-gangs", mixinStandardHelpOptions = true,
      description = "Writes nodes.csv and tasks.csv of a trace where large gangs arrive among short jobs.")
  static final class GenerateGangs implements Callable<Integer> {
    @Option(names = "--cluster-nodes", defaultValue = "16", description = "Nodes of 8 GPUs (default ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--jobs", defaultValue = "600", description = "Jobs (default ${DEFAULT-VALUE}).")
    int jobs;

    @Option(names = "--load", defaultValue = "0.9",
        description = "Offered GPU time as a share of the cluster's (default ${DEFAULT-VALUE}).")
    double load;

    @CommandLine.Mixin RunOptions run = new RunOptions("gang-trace");

    @Override
    public Integer call() {
      GangTrace.write(run.out, new GangTrace.Settings(nodes, jobs, load, run.seed));
      System.out.println("trace: " + run.out.resolve("nodes.csv") + ", " + run.out.resolve("tasks.csv"));
      return 0;
    }
  }
}
