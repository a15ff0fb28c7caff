package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.scheduler.KoordScheduler;
import io.koord4j.testing.LocalCluster;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Benchmark B4: how fast kube-scheduler (default profile) and koord-scheduler (default profile,
 * LoadAware included) bind plain CPU/memory pods on the same KWOK nodes of the local cluster, and
 * how fast the API server takes bindings at all (the binding ceiling, {@link BindingCeiling}).
 *
 * <p>Each side gets a block of its own, in turn, on the same nodes, with a scheduler name unique
 * to the run. All three run as separate processes started by the benchmark: kube-scheduler with
 * the client limits of the cluster's own instance (500 QPS, burst 1,000), koord-scheduler in a
 * JVM of its own (its client has no rate limit) so that it shares neither heap nor threads with
 * the load generator, and the ceiling with koord-scheduler's client, binder and binding threads.
 * A block:
 *
 * <ol>
 *   <li><b>Backlog</b>: {@code pods} pods are created while no scheduler serves them (this times
 *       the client and API server alone), then the scheduler starts. Throughput is pods bound per
 *       second from the first bind to the last, so neither creation speed nor start-up counts.
 *   <li><b>Latency</b>: with the scheduler running, {@code latencyPods} more pods are created at
 *       a steady {@code latencyRate}; create-to-bound is the time from sending each create to this
 *       process's watch seeing the pod bound (milliseconds, where object timestamps have seconds).
 * </ol>
 *
 * Then the scheduler stops and the block's pods are deleted. The blocks run for every node count
 * of {@code bench.b4.nodes}, smallest first, the pool growing between sizes. At each size the three
 * blocks run {@code bench.b4.rounds} times, each round starting with the next side, so that no side
 * always runs first on freshly grown nodes; the report gives each round and their means. System
 * properties: {@code bench.b4.nodes} (comma-separated, 1,000 and 5,000), {@code bench.b4.rounds}
 * (1), {@code bench.b4.pods} (10,000),
 * {@code bench.b4.latencyPods} (1,000), {@code bench.b4.latencyRate} (50/s), {@code
 * bench.b4.createRate} (offered, 1,000/s), {@code bench.b4.threads} (32), {@code
 * bench.b4.koordJvmOptions} (space-separated, for koord-scheduler's JVM, e.g. a flight recording;
 * {@code {name}} stands for the block's scheduler name), {@code bench.b4.cds} (true: koord-scheduler
 * starts with a class-data archive, {@link ClassDataArchive}). Writes {@code target/bench/B4.md};
 * deletes its nodes and namespaces.
 */
public final class SchedulingThroughputBenchmark {

  private static final Duration BIND_TIMEOUT = Duration.ofMinutes(30);
  private static final Map<String, Quantity> REQUESTS =
      Map.of("cpu", new Quantity("500m"), "memory", new Quantity("1Gi"));
  private static final Map<String, String> NODE_CAPACITY = Map.of("cpu", "32", "memory", "128Gi", "pods", "110");

  private SchedulingThroughputBenchmark() {}

  /** What one side's block measured; {@code loadAverage} is the machine's at the block's end. */
  record Block(
      String scheduler,
      LoadResult creation,
      double startToFirstBindSeconds,
      double bindSeconds,
      int bound,
      LoadResult createToBound,
      double loadAverage) {
    double podsPerSecond() {
      return (bound - 1) / bindSeconds;
    }

    /** The block's figures on one line, logged as soon as they are known. */
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%.1f pods/s (%d in %.1f s, first bind %.1f s after start), create-to-bound p50 %.0f ms,"
              + " p99 %.0f ms, creation alone %.1f/s, load average %.1f",
          podsPerSecond(), bound, bindSeconds, startToFirstBindSeconds,
          createToBound.percentileMillis(0.5), createToBound.percentileMillis(0.99), creation.rate(),
          loadAverage);
    }
  }

  /** The three blocks of one round, and the side that ran first. */
  record Round(Block kube, Block koord, Block ceiling, String first) {
    double koordPerKube() {
      return koord.podsPerSecond() / kube.podsPerSecond();
    }

    double koordPerCeiling() {
      return koord.podsPerSecond() / ceiling.podsPerSecond();
    }
  }

  /** The rounds run on one pool size, and each side's figures over them. */
  record Size(int nodes, List<Round> rounds) {
    /** A figure of one side, averaged over the rounds. */
    double mean(Function<Round, Block> side, ToDoubleFunction<Block> figure) {
      return rounds.stream().map(side).mapToDouble(figure).average().orElse(Double.NaN);
    }

    /** Every round's calls of one side's phase as one result, e.g. all steady pods' latencies. */
    LoadResult pooled(Function<Round, Block> side, Function<Block, LoadResult> result) {
      return rounds.stream().map(side).map(result).reduce(LoadResult.NONE, LoadResult::plus);
    }
  }

  /** One of the three schedulers a round runs: its report label, name suffix and process. */
  private record Side(String label, String suffix, SchedulerProcess.Starter starter) {}

  public static void main(String[] args) throws Exception {
    List<Integer> sizes =
        Arrays.stream(System.getProperty("bench.b4.nodes", "1000,5000").split(","))
            .map(String::trim)
            .map(Integer::valueOf)
            .sorted()
            .toList();
    int rounds = Integer.getInteger("bench.b4.rounds", 1);
    int pods = Integer.getInteger("bench.b4.pods", 10_000);
    int latencyPods = Integer.getInteger("bench.b4.latencyPods", 1_000);
    double latencyRate = Double.parseDouble(System.getProperty("bench.b4.latencyRate", "50"));
    double createRate = Double.parseDouble(System.getProperty("bench.b4.createRate", "1000"));
    int threads = Integer.getInteger("bench.b4.threads", 32);
    boolean classDataArchive = Boolean.parseBoolean(System.getProperty("bench.b4.cds", "true"));
    String run = "b4-" + UUID.randomUUID().toString().substring(0, 6);
    try (KubernetesClient client = BenchClients.admin(threads);
        BenchNodes pool = new BenchNodes(client, run)) {
      LocalCluster.ensureCrds(client, SchedulerProcess.KOORD_SCHEDULER_CRDS);
      List<String> koordJvmOptions = new ArrayList<>();
      if (classDataArchive) {
        log("training run of koord-scheduler for its class-data archive");
        koordJvmOptions.addAll(ClassDataArchive.koordSchedulerOptions(client));
      }
      Arrays.stream(System.getProperty("bench.b4.koordJvmOptions", "").split(" "))
          .filter(option -> !option.isBlank())
          .forEach(koordJvmOptions::add);
      Workload workload =
          new Workload(client, pool, new CreateLoad(createRate, threads), pods / createRate, pods, latencyPods, latencyRate);
      List<Side> sides =
          List.of(
              new Side("kube-scheduler", "kube", SchedulerProcess::kubeScheduler),
              new Side(
                  "koord-scheduler",
                  "koord",
                  name -> SchedulerProcess.koordScheduler(client, name, koordJvmOptions)),
              new Side("binding ceiling", "ceiling", name -> SchedulerProcess.bindingCeiling(name, run)));
      List<Size> results = new ArrayList<>();
      int created = 0;
      for (int nodes : sizes) {
        log("growing pool " + run + " to " + nodes + " KWOK nodes");
        pool.grow(created, nodes, NODE_CAPACITY, Map.of(), threads);
        created = nodes;
        List<Round> done = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
          done.add(workload.round(sides, run + "-" + nodes + "-" + (round + 1), round));
          // Written after each round, so that a run stopped later keeps what it measured.
          List<Size> measured = new ArrayList<>(results);
          measured.add(new Size(nodes, List.copyOf(done)));
          BenchReport.write(
              "B4",
              markdown(pods, latencyPods, latencyRate, ChartJvmOptions.of("scheduler"), measured));
        }
        results.add(new Size(nodes, done));
      }
    }
  }

  /** The pods of the benchmark and how each block creates, measures and removes them. */
  private record Workload(
      KubernetesClient client,
      BenchNodes pool,
      CreateLoad load,
      double createSeconds,
      int pods,
      int latencyPods,
      double latencyRate) {

    /** The three sides' blocks, the {@code index}-th round starting with the {@code index}-th side. */
    Round round(List<Side> sides, String prefix, int index) throws Exception {
      Map<String, Block> blocks = new HashMap<>();
      for (int turn = 0; turn < sides.size(); turn++) {
        Side side = sides.get((index + turn) % sides.size());
        blocks.put(side.suffix(), block(side.label(), prefix + "-" + side.suffix(), side.starter()));
      }
      return new Round(
          blocks.get("kube"), blocks.get("koord"), blocks.get("ceiling"), sides.get(index % sides.size()).label());
    }

    Block block(String label, String name, SchedulerProcess.Starter starter) throws Exception {
      try (BenchNamespace namespace = new BenchNamespace(client, name);
          BindTimes binds = new BindTimes(client, name)) {
        log(name + " " + label + ": creating " + pods + " pods with no scheduler serving them");
        LoadResult creation = load.run(createSeconds, i -> create(name, "backlog-" + i));
        int created = creation.calls() - creation.failures();
        try (SchedulerProcess scheduler = starter.start(name)) {
          log(name + " " + label + ": started; waiting for " + created + " binds");
          awaitBound(binds, scheduler, created);
          long[] times = binds.bindings().values().stream().mapToLong(BindTimes.Binding::nanos).sorted().toArray();
          log(name + " " + label + ": " + latencyPods + " pods at " + latencyRate + "/s with the scheduler running");
          AtomicLongArray sent = new AtomicLongArray(latencyPods);
          LoadResult steady =
              new CreateLoad(latencyRate, 8)
                  .run(
                      latencyPods / latencyRate,
                      i -> {
                        sent.set(i, System.nanoTime());
                        create(name, "steady-" + i);
                      });
          awaitBound(binds, scheduler, created + steady.calls() - steady.failures());
          Block block =
              new Block(
                  label,
                  creation,
                  (times[0] - scheduler.startedNanos()) / 1e9,
                  (times[times.length - 1] - times[0]) / 1e9,
                  times.length,
                  createToBound(binds, sent),
                  ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
          log(name + " " + label + ": " + block);
          return block;
        }
      }
    }

    private void create(String namespace, String podName) {
      client.resource(pod(namespace, podName)).create();
    }

    private Pod pod(String namespace, String podName) {
      Pod pod = BenchPods.pod(namespace, podName, REQUESTS, Map.of()).build();
      pool.placeOnPool(pod.getSpec());
      return pod;
    }

    private static void awaitBound(BindTimes binds, SchedulerProcess scheduler, int count)
        throws InterruptedException {
      long deadline = System.nanoTime() + BIND_TIMEOUT.toNanos();
      while (!binds.await(count, Duration.ofSeconds(10))) {
        scheduler.checkAlive();
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              binds.bindings().size() + " of " + count + " pods bound after " + BIND_TIMEOUT);
        }
        log(binds.bindings().size() + " of " + count + " bound");
      }
    }

    /** Latency of every steady pod that was created; failed creates are left out. */
    private static LoadResult createToBound(BindTimes binds, AtomicLongArray sent) {
      long[] latencies = new long[sent.length()];
      int measured = 0;
      for (int i = 0; i < latencies.length; i++) {
        BindTimes.Binding binding = binds.bindings().get("steady-" + i);
        if (binding != null) {
          latencies[measured++] = binding.nanos() - sent.get(i);
        }
      }
      return new LoadResult(Arrays.copyOf(latencies, measured), 0, Optional.empty(), 0);
    }
  }

  private static String markdown(
      int pods, int latencyPods, double latencyRate, List<String> chartOptions, List<Size> sizes) {
    List<String> lines = new ArrayList<>(List.of(
        "# B4: scheduling throughput, kube-scheduler vs koord-scheduler vs the binding ceiling",
        "",
        String.format(Locale.ROOT,
            "KWOK nodes of 32 CPU, 128 GiB, 110 pods; %,d pods of 500m CPU and 1 GiB per side and size,"
                + " on the local control plane. Each side runs as its own process in its own block on the"
                + " same nodes: kube-scheduler (default profile, the cluster's client limits, 500 QPS /"
                + " burst 1,000), koord-scheduler (default profile, its own JVM) and the binding ceiling"
                + " (no decision: each pod bound to the next node round-robin, with koord-scheduler's"
                + " client, binder and %d binding threads). Each starts once its %,d pods exist;"
                + " throughput counts from its first bind to its last. Then %,d pods are created at"
                + " %.0f/s with it running, for create-to-bound latency. A round runs the three blocks in"
                + " turn, each round starting with the next side; each size's figures are the means of its"
                + " rounds, its create-to-bound percentiles those of all its rounds' pods.",
            pods, KoordScheduler.BINDING_THREADS, pods, latencyPods, latencyRate)));
    for (Size size : sizes) {
      lines.addAll(table(size));
    }
    lines.add("");
    lines.add("Pod creation is timed separately, before the scheduler starts, so the throughput above is"
        + " the scheduler's, not the client's. The load average is the machine's 1-minute average at the"
        + " end of each block.");
    for (Size size : sizes) {
      for (Round round : size.rounds()) {
        for (Block b : List.of(round.kube(), round.koord(), round.ceiling())) {
          b.creation().firstFailure().ifPresent(f -> lines.add(size.nodes() + " nodes, " + b.scheduler() + " creation failure: `" + f + "`"));
        }
      }
    }
    lines.add("");
    lines.add("koord-scheduler and the binding ceiling run with the JVM options the Helm chart gives"
        + " koord-scheduler: `" + String.join(" ", chartOptions) + "`.");
    lines.add("");
    lines.add("Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs shared with the control plane; run at " + Instant.now() + ".");
    return String.join("\n", lines) + "\n";
  }

  private static List<String> table(Size size) {
    int rounds = size.rounds().size();
    List<String> lines = new ArrayList<>(List.of(
        "",
        String.format(Locale.ROOT, "## %,d nodes%s", size.nodes(), rounds == 1 ? "" : ", mean of " + rounds + " rounds"),
        "",
        "| | kube-scheduler | koord-scheduler | binding ceiling | koord / kube | koord / ceiling |",
        "|---|---:|---:|---:|---:|---:|",
        ratioRow("pods bound per second", "%.1f", side -> size.mean(side, Block::podsPerSecond)),
        figureRow("first to last bind (s)", "%.1f", side -> size.mean(side, Block::bindSeconds)),
        figureRow("start to first bind (s)", "%.1f", side -> size.mean(side, Block::startToFirstBindSeconds)),
        ratioRow("create-to-bound p50 (ms)", "%.0f", side -> size.pooled(side, Block::createToBound).percentileMillis(0.5)),
        ratioRow("create-to-bound p99 (ms)", "%.0f", side -> size.pooled(side, Block::createToBound).percentileMillis(0.99)),
        figureRow("pod creation alone (/s, no scheduler)", "%.1f", side -> size.pooled(side, Block::creation).rate()),
        figureRow("load average", "%.1f", side -> size.mean(side, Block::loadAverage))));
    if (rounds > 1) {
      lines.addAll(List.of(
          "",
          "| round | first | kube-scheduler (pods/s) | koord-scheduler (pods/s) | binding ceiling (pods/s) | koord / kube | koord / ceiling | koord's start to first bind (s) |",
          "|---:|---|---:|---:|---:|---:|---:|---:|"));
      for (int i = 0; i < rounds; i++) {
        Round round = size.rounds().get(i);
        lines.add(String.format(Locale.ROOT, "| %d | %s | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f |",
            i + 1, round.first(), round.kube().podsPerSecond(), round.koord().podsPerSecond(),
            round.ceiling().podsPerSecond(), round.koordPerKube(), round.koordPerCeiling(),
            round.koord().startToFirstBindSeconds()));
      }
    }
    return lines;
  }

  /** A row of one figure per side, with no ratio. */
  private static String figureRow(String name, String format, ToDoubleFunction<Function<Round, Block>> figure) {
    return row(name, format, figure, false);
  }

  /** A row of one figure per side, with koord-scheduler's against the other two. */
  private static String ratioRow(String name, String format, ToDoubleFunction<Function<Round, Block>> figure) {
    return row(name, format, figure, true);
  }

  private static String row(
      String name, String format, ToDoubleFunction<Function<Round, Block>> figure, boolean ratios) {
    double kube = figure.applyAsDouble(Round::kube);
    double koord = figure.applyAsDouble(Round::koord);
    double ceiling = figure.applyAsDouble(Round::ceiling);
    String cells = String.format(Locale.ROOT, "| %s |" + (" " + format + " |").repeat(3), name, kube, koord, ceiling);
    return cells + (ratios ? String.format(Locale.ROOT, " %.2f | %.2f |", koord / kube, koord / ceiling) : " | |");
  }

  private static void log(String message) {
    System.out.println("[B4 " + Instant.now() + "] " + message);
  }
}
