package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.testing.LocalCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Benchmark B4: how fast kube-scheduler (default profile) and koord-scheduler (default profile,
 * LoadAware included) bind plain CPU/memory pods on the same KWOK nodes of the local cluster.
 *
 * <p>Each scheduler gets a block of its own, in turn, on the same nodes, with a scheduler name
 * unique to the run. Both run as separate processes started by the benchmark: kube-scheduler with
 * the client limits of the cluster's own instance (500 QPS, burst 1,000), koord-scheduler in a
 * JVM of its own (its client has no rate limit) so that it shares neither heap nor threads with
 * the load generator. A block:
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
 * Then the scheduler stops and the block's pods are deleted. System properties: {@code
 * bench.b4.nodes} (1,000), {@code bench.b4.pods} (10,000), {@code bench.b4.latencyPods} (1,000),
 * {@code bench.b4.latencyRate} (50/s), {@code bench.b4.createRate} (offered, 1,000/s), {@code
 * bench.b4.threads} (32). Writes {@code target/bench/B4.md}; deletes its nodes and namespaces.
 */
public final class SchedulingThroughputBenchmark {

  private static final Duration BIND_TIMEOUT = Duration.ofMinutes(30);
  private static final Map<String, Quantity> REQUESTS =
      Map.of("cpu", new Quantity("500m"), "memory", new Quantity("1Gi"));

  private SchedulingThroughputBenchmark() {}

  /** What one scheduler's block measured. */
  record Block(
      String scheduler,
      LoadResult creation,
      double startToFirstBindSeconds,
      double bindSeconds,
      int bound,
      LoadResult createToBound) {
    double podsPerSecond() {
      return (bound - 1) / bindSeconds;
    }

    /** The block's figures on one line, logged as soon as they are known. */
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%.1f pods/s (%d in %.1f s, first bind %.1f s after start), create-to-bound p50 %.0f ms,"
              + " p99 %.0f ms, creation alone %.1f/s",
          podsPerSecond(), bound, bindSeconds, startToFirstBindSeconds,
          createToBound.percentileMillis(0.5), createToBound.percentileMillis(0.99), creation.rate());
    }
  }

  public static void main(String[] args) throws Exception {
    int nodes = Integer.getInteger("bench.b4.nodes", 1_000);
    int pods = Integer.getInteger("bench.b4.pods", 10_000);
    int latencyPods = Integer.getInteger("bench.b4.latencyPods", 1_000);
    double latencyRate = Double.parseDouble(System.getProperty("bench.b4.latencyRate", "50"));
    double createRate = Double.parseDouble(System.getProperty("bench.b4.createRate", "1000"));
    int threads = Integer.getInteger("bench.b4.threads", 32);
    String run = "b4-" + UUID.randomUUID().toString().substring(0, 6);
    try (KubernetesClient client = BenchClients.admin(threads);
        BenchNodes pool = new BenchNodes(client, run)) {
      log("creating " + nodes + " KWOK nodes in pool " + run);
      pool.create(nodes, Map.of("cpu", "32", "memory", "128Gi", "pods", "110"), Map.of(), threads);
      Workload workload = new Workload(client, pool, new CreateLoad(createRate, threads), pods / createRate, pods);
      List<Block> blocks = new ArrayList<>();
      blocks.add(
          workload.block(
              "kube-scheduler", run + "-kube", SchedulerProcess::kubeScheduler, latencyPods, latencyRate));
      LocalCluster.ensureCrds(client, SchedulerProcess.KOORD_SCHEDULER_CRDS);
      blocks.add(
          workload.block(
              "koord-scheduler",
              run + "-koord",
              name -> SchedulerProcess.koordScheduler(client, name),
              latencyPods,
              latencyRate));
      BenchReport.write("B4", markdown(nodes, pods, latencyPods, latencyRate, blocks));
    }
  }

  /** The pods of the benchmark and how each block creates, measures and removes them. */
  private record Workload(
      KubernetesClient client, BenchNodes pool, CreateLoad load, double createSeconds, int pods) {

    Block block(
        String label, String name, SchedulerProcess.Starter starter, int latencyPods, double latencyRate)
        throws Exception {
      try (BenchNamespace namespace = new BenchNamespace(client, name);
          BindTimes binds = new BindTimes(client, name)) {
        log(label + ": creating " + pods + " pods with no scheduler serving them");
        LoadResult creation = load.run(createSeconds, i -> create(name, "backlog-" + i));
        int created = creation.calls() - creation.failures();
        try (SchedulerProcess scheduler = starter.start(name)) {
          log(label + ": started; waiting for " + created + " binds");
          awaitBound(binds, scheduler, created);
          long[] times = binds.bindings().values().stream().mapToLong(BindTimes.Binding::nanos).sorted().toArray();
          log(label + ": " + latencyPods + " pods at " + latencyRate + "/s with the scheduler running");
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
                  createToBound(binds, sent));
          log(label + ": " + block);
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

  private static String markdown(int nodes, int pods, int latencyPods, double latencyRate, List<Block> blocks) {
    Block kube = blocks.get(0);
    Block koord = blocks.get(1);
    List<String> lines = new ArrayList<>(List.of(
        "# B4: scheduling throughput, kube-scheduler vs koord-scheduler",
        "",
        String.format(Locale.ROOT,
            "%,d KWOK nodes (32 CPU, 128 GiB, 110 pods), %,d pods of 500m CPU and 1 GiB per scheduler,"
                + " on the local control plane. Each scheduler runs as its own process with its default"
                + " profile (kube-scheduler with the cluster's client limits, 500 QPS / burst 1,000;"
                + " koord-scheduler in its own JVM) in its own block on the same nodes, and starts once"
                + " its %,d pods exist; throughput counts from its first bind to its last. Then %,d"
                + " pods are created at %.0f/s with it running, for create-to-bound latency.",
            nodes, pods, pods, latencyPods, latencyRate),
        "",
        "| | kube-scheduler | koord-scheduler | koord / kube |",
        "|---|---:|---:|---:|",
        String.format(Locale.ROOT, "| pods bound per second | %.1f | %.1f | %.2f |",
            kube.podsPerSecond(), koord.podsPerSecond(), koord.podsPerSecond() / kube.podsPerSecond()),
        String.format(Locale.ROOT, "| first to last bind (s) | %.1f | %.1f | |", kube.bindSeconds(), koord.bindSeconds()),
        String.format(Locale.ROOT, "| start to first bind (s) | %.1f | %.1f | |",
            kube.startToFirstBindSeconds(), koord.startToFirstBindSeconds()),
        latencyRow("create-to-bound p50 (ms)", kube.createToBound().percentileMillis(0.5), koord.createToBound().percentileMillis(0.5)),
        latencyRow("create-to-bound p99 (ms)", kube.createToBound().percentileMillis(0.99), koord.createToBound().percentileMillis(0.99)),
        String.format(Locale.ROOT, "| pod creation alone (/s, no scheduler) | %.1f | %.1f | |",
            kube.creation().rate(), koord.creation().rate()),
        "",
        "Pod creation is timed separately, before the scheduler starts, so the throughput above is"
            + " the scheduler's, not the client's."));
    blocks.forEach(b -> b.creation().firstFailure().ifPresent(f -> lines.add(b.scheduler() + " creation failure: `" + f + "`")));
    lines.add("");
    lines.add("Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs shared with the control plane; run at " + Instant.now() + ".");
    return String.join("\n", lines) + "\n";
  }

  private static String latencyRow(String name, double kube, double koord) {
    return String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.2f |", name, kube, koord, koord / kube);
  }

  private static void log(String message) {
    System.out.println("[B4 " + Instant.now() + "] " + message);
  }
}
