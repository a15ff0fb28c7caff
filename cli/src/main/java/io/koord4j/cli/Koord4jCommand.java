package io.koord4j.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.visibility.GpuMap;
import io.koord4j.visibility.GpuNodes;
import io.koord4j.visibility.JobRows;
import io.koord4j.visibility.QueueSummaries;
import io.koord4j.visibility.QuotaTreeView;
import io.koord4j.visibility.Why;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.migration.KueueImport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;

/** {@code kubectl koord4j}: what the queue holds and why a job waits. */
@Command(
    name = "kubectl-koord4j",
    mixinStandardHelpOptions = true,
    version = "koord4j 0.1.0",
    description = "Queues, elastic quota and GPUs of koord4j, and why a job is pending.",
    subcommands = {
      Koord4jCommand.Queues.class,
      Koord4jCommand.Quota.class,
      Koord4jCommand.Jobs.class,
      Koord4jCommand.WhyCommand.class,
      Koord4jCommand.Top.class,
      Koord4jCommand.Import.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:success", "1:unexpected API error", "2:invalid command line",
      "3:no cluster reachable", "4:koord4j (or, to import, Kueue) CRDs not installed", "5:no such job or kind",
      "6:invalid objects to import"
    })
public final class Koord4jCommand {

  @Option(names = {"-o", "--output"}, scope = ScopeType.INHERIT, defaultValue = "table",
      description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
  OutputFormat output;

  /** Creates the client; tests hand in one of their own. */
  Supplier<ClusterReader> cluster = ClusterReader::new;

  public static void main(String[] args) {
    System.exit(run(new Koord4jCommand(), new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
  }

  static int run(Koord4jCommand root, PrintWriter out, PrintWriter err, String... args) {
    CommandLine line = new CommandLine(root).setCaseInsensitiveEnumValuesAllowed(true);
    line.setOut(out);
    line.setErr(err);
    line.setExecutionExceptionHandler((e, cmd, parsed) -> {
      if (e instanceof CliFailure failure) {
        err.println("error: " + failure.getMessage());
        return failure.exitCode();
      }
      if (e instanceof KubernetesClientException api) {
        err.println("error: the API server refused a read (" + api.getCode() + "): " + api.getMessage());
        return 1;
      }
      throw e;
    });
    return line.execute(args);
  }

  /**
   * Reads what a command needs, renders its rows in the format of the shared {@code -o} option,
   * and prints them.
   */
  static <T> Integer print(
      CommandLine.Model.CommandSpec spec, Function<ClusterReader, T> rows, Function<T, String> table) {
    Koord4jCommand root = (Koord4jCommand) spec.root().userObject();
    try (ClusterReader reader = root.cluster.get()) {
      T data = rows.apply(reader);
      spec.commandLine().getOut().print(root.output.render(data, () -> table.apply(data)));
      spec.commandLine().getOut().flush();
      return 0;
    }
  }

  @Command(name = "queues", description = "Every Queue with policy, pending/admitted/running counts and oldest pending job.")
  static final class Queues implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      return print(spec, reader -> QueueSummaries.of(reader.queues(), reader.units(null), Instant.now()),
          QueueSummaries::table);
    }
  }

  @Command(name = "quota", description = "Elastic quota.", subcommands = Quota.Tree.class)
  static final class Quota {
    @Command(name = "tree", description = "The ElasticQuota tree: min, max, runtime, used, borrowed and lent, with usage bars.")
    static final class Tree implements Callable<Integer> {
      @CommandLine.Spec CommandLine.Model.CommandSpec spec;

      @Option(names = {"-w", "--watch"}, description = "Print the tree again every --interval seconds.")
      boolean watch;

      @Option(names = "--interval", defaultValue = "2", description = "Seconds between refreshes with --watch (default: ${DEFAULT-VALUE}).")
      int interval;

      @Override
      public Integer call() throws InterruptedException {
        do {
          print(spec, reader -> QuotaTreeView.of(reader.quotas()), QuotaTreeView::table);
          if (watch) {
            Thread.sleep(interval * 1000L);
            spec.commandLine().getOut().println();
          }
        } while (watch);
        return 0;
      }
    }
  }

  @Command(name = "jobs", description = "Queued jobs with position in their queue, phase, age and reason.")
  static final class Jobs implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = {"-n", "--namespace"}, description = "Only this namespace (default: all).")
    String namespace;

    @Option(names = {"-q", "--queue"}, description = "Only this queue.")
    String queue;

    @Override
    public Integer call() {
      return print(spec, reader -> JobRows.of(reader.units(namespace), queue, Instant.now()), JobRows::table);
    }
  }

  @Command(name = "why", description = "Why a job is pending: the exact constraint that holds it back.")
  static final class WhyCommand implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "KIND/NAME", description = "e.g. job/train, pytorchjob/bert")
    String target;

    @Option(names = {"-n", "--namespace"}, description = "The job's namespace (default: the context's).")
    String namespace;

    @Override
    public Integer call() {
      String[] kindAndName = target.split("/", 2);
      if (kindAndName.length != 2 || kindAndName[0].isBlank() || kindAndName[1].isBlank()) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "KIND/NAME must look like job/train, not \"" + target + "\"");
      }
      return print(spec, reader -> Why.explain(facts(reader, kindAndName[0], kindAndName[1])), Why::text);
    }

    private Why.Facts facts(ClusterReader reader, String kind, String name) {
      String ns = namespace == null ? reader.defaultNamespace() : namespace;
      GenericKubernetesResource job = reader.job(kind, ns, name);
      List<QueueUnit> all = reader.units(null);
      QueueUnit unit = all.stream()
          .filter(u -> ns.equals(u.getMetadata().getNamespace()) && name.equals(u.getMetadata().getName()))
          .findFirst().orElse(null);
      if (unit == null) {
        return new Why.Facts(job, null, all, List.of(), List.of(), reader.namespace(ns), reader.webhookConfigurations());
      }
      return new Why.Facts(job, unit, all, reader.quotas(),
          GpuNodes.of(reader.nodes(), reader.devices(), reader.boundPods()), null, List.of());
    }
  }

  @Command(name = "top", description = "Device usage.", subcommands = Top.Gpus.class)
  static final class Top {
    @Command(name = "gpus", description = "Per node the GPUs, the pod holding each (device-allocated) and the free NVLink partitions.")
    static final class Gpus implements Callable<Integer> {
      @CommandLine.Spec CommandLine.Model.CommandSpec spec;

      @Override
      public Integer call() {
        return print(spec,
            reader -> GpuMap.of(GpuNodes.of(reader.nodes(), reader.devices(), reader.boundPods())), GpuMap::table);
      }
    }
  }

  @Command(name = "import", description = "Another queueing system's objects as koord4j's.", subcommands = Import.Kueue.class)
  static final class Import {
    @Command(name = "kueue", description = {
        "Kueue's ClusterQueues, Cohorts and LocalQueues as ElasticQuotas and Queues with the same guarantees,"
            + " printed as YAML to apply (kubectl koord4j import kueue | kubectl apply -f -).",
        "What has no equivalent is listed in comments at the top and on standard error."})
    static final class Kueue implements Callable<Integer> {
      @CommandLine.Spec CommandLine.Model.CommandSpec spec;

      @Option(names = {"-f", "--filename"}, description = "Read Kueue's objects from these YAML or JSON files instead of the cluster.")
      List<Path> files;

      @Option(names = "--quota-namespace", defaultValue = "koordinator-system",
          description = "Namespace of the ElasticQuotas (default: ${DEFAULT-VALUE}).")
      String quotaNamespace;

      @Override
      public Integer call() throws IOException {
        KueueImport.Result result;
        try {
          result = KueueImport.translate(kueueObjects(), quotaNamespace);
        } catch (IllegalArgumentException e) {
          throw new CliFailure(CliFailure.INVALID_INPUT, e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("# koord4j's equivalent of the Kueue objects: " + result.objects().size() + " objects.");
        result.notExpressed().forEach(line -> out.println("# not expressed: " + line));
        result.objects().forEach(object -> out.print(Serialization.asYaml(object)));
        out.flush();
        result.notExpressed().forEach(line -> spec.commandLine().getErr().println("not expressed: " + line));
        return 0;
      }

      private List<GenericKubernetesResource> kueueObjects() throws IOException {
        if (files == null) {
          Koord4jCommand root = (Koord4jCommand) spec.root().userObject();
          try (ClusterReader reader = root.cluster.get()) {
            return reader.kueueObjects();
          }
        }
        List<GenericKubernetesResource> objects = new ArrayList<>();
        for (Path file : files) {
          objects.addAll(KueueImport.parse(Files.readString(file)));
        }
        return objects;
      }
    }
  }
}
