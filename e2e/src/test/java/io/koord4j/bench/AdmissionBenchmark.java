package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.manager.it.ManagerProcess;
import io.koord4j.testing.JavaProcess;
import io.koord4j.testing.LocalCluster;
import io.koord4j.webhook.registration.WebhookConfigurations;
import io.koord4j.webhook.registration.WebhookRegistrar;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Benchmarks B2 and B3: the same stream of batch/v1 Jobs ({@link AdmissionWorkload}) admitted
 * through koord4j and through real Kueue 0.17 over the same two-level quota tree ({@link
 * AdmissionQuotas}), and created with no queue at all, on the same KWOK nodes of a pool of their
 * own, scheduled by the cluster's kube-scheduler.
 *
 * <p>Each round runs every system in turn, the first of the two queues alternating from round to
 * round; only the system measured runs: koord4j's manager as a process of its own serving the
 * webhook too (as deployed), or Kueue as the local cluster starts it (its shipped client
 * limits and concurrency), never both. A system's block creates the jobs at a fixed rate into a
 * fresh namespace and waits until every job has started and has all its pods; then the namespace
 * is deleted while the system still runs (it removes its finalizers), and the system stops.
 * A job is admitted when this process's watch first sees it unsuspended. Before its measured
 * block, each queue runs a warm-up block of other jobs of the same kind to completion, as a
 * deployed queue has run before: for koord4j's manager, a fresh JVM, that is where its code is
 * compiled.
 *
 * <p>System properties: {@code bench.b2.jobs} (5,000), {@code bench.b2.rounds} (3), {@code
 * bench.b2.createRate} (jobs per second, 100), {@code bench.b2.threads} (16), {@code
 * bench.b2.nodes} (12 nodes of 40 CPU), {@code bench.b2.seed} (1), {@code bench.b2.warmupJobs}
 * (jobs of the warm-up block, 100; 0 for none), {@code bench.b2.systems}
 * (which to run: {@code koord4j,kueue,none}; without Kueue the report is B3's, and the tree and
 * the nodes hold the whole stream at once: {@link AdmissionQuotas.Limits#holding}), {@code
 * bench.b2.profile} ({@code true}: a flight recording of the manager per round under {@code
 * target/bench/logs}). Writes {@code target/bench/B2.md} (or {@code B3.md}); deletes its nodes,
 * namespaces, quotas and Kueue objects.
 */
public final class AdmissionBenchmark {
  private static final int NODE_CPU = 40;
  private static final int NODE_PODS = 110;
  private static final Duration ROUND_TIMEOUT = Duration.ofMinutes(30);
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private AdmissionBenchmark() {}

  public static void main(String[] args) throws Exception {
    int jobs = Integer.getInteger("bench.b2.jobs", 5_000);
    int rounds = Integer.getInteger("bench.b2.rounds", 3);
    double rate = Double.parseDouble(System.getProperty("bench.b2.createRate", "100"));
    int threads = Integer.getInteger("bench.b2.threads", 16);
    int nodes = Integer.getInteger("bench.b2.nodes", 12);
    long seed = Long.getLong("bench.b2.seed", 1);
    int warmupJobs = Integer.getInteger("bench.b2.warmupJobs", 100);
    List<AdmissionSystem> systems =
        Arrays.stream(System.getProperty("bench.b2.systems", "koord4j,kueue,none").split(","))
            .map(AdmissionSystem::of)
            .toList();
    boolean profile = Boolean.getBoolean("bench.b2.profile");
    String run = "b2-" + UUID.randomUUID().toString().substring(0, 6);
    AdmissionWorkload workload = new AdmissionWorkload(jobs, seed);
    boolean withKueue = systems.contains(AdmissionSystem.KUEUE);
    AdmissionQuotas.Limits limits =
        withKueue ? AdmissionQuotas.Limits.contended() : AdmissionQuotas.Limits.holding(workload);
    int poolNodes = withKueue ? nodes : Math.max(nodes, nodesHolding(workload));
    try (KubernetesClient client = BenchClients.admin(threads);
        BenchNodes pool = new BenchNodes(client, run)) {
      LocalCluster.ensureAllCrds(client);
      BenchNamespace.awaitNoneTerminating(client);
      // Only the system measured may see the jobs.
      LocalCluster.script("kueue", "down");
      log("creating " + poolNodes + " KWOK nodes in pool " + run);
      pool.create(poolNodes, Map.of("cpu", Integer.toString(NODE_CPU), "memory", "160Gi", "pods", Integer.toString(NODE_PODS)),
          Map.of(), threads);
      AdmissionQuotas quotas = new AdmissionQuotas(client, run, limits);
      quotas.applyKoord4j();
      client.resource(new NamespaceBuilder().withNewMetadata().withName(run + "-system").endMetadata().build()).create();
      Rounds rounder =
          new Rounds(client, pool, quotas, workload, new AdmissionWorkload(warmupJobs, seed + 1),
              new CreateLoad(rate, threads), run, profile);
      List<AdmissionRound> results = new ArrayList<>();
      try {
        for (int round = 1; round <= rounds; round++) {
          for (AdmissionSystem system : order(systems, round)) {
            AdmissionRound result = rounder.run(system, round);
            log(result.toString());
            results.add(result);
          }
        }
      } finally {
        quotas.deleteKoord4j();
        client.namespaces().withName(run + "-system").delete();
      }
      BenchReport.write(
          withKueue ? "B2" : "B3",
          AdmissionReport.markdown(workload, limits, results, rate, poolNodes, warmupJobs, withKueue, profile));
    }
  }

  /** Nodes with a tenth more room than the whole stream's CPU and pods at once. */
  private static int nodesHolding(AdmissionWorkload workload) {
    return (int) Math.ceil(1.1 * Math.max((double) workload.cpu() / NODE_CPU, (double) workload.pods() / NODE_PODS));
  }

  /** The systems of one round; the two queues swap places every other round. */
  private static List<AdmissionSystem> order(List<AdmissionSystem> systems, int round) {
    List<AdmissionSystem> order = new ArrayList<>(systems);
    int koord4j = order.indexOf(AdmissionSystem.KOORD4J);
    int kueue = order.indexOf(AdmissionSystem.KUEUE);
    if (round % 2 == 0 && koord4j >= 0 && kueue >= 0) {
      order.set(koord4j, AdmissionSystem.KUEUE);
      order.set(kueue, AdmissionSystem.KOORD4J);
    }
    return order;
  }

  /** How one system's block of a round is set up, measured and torn down. */
  private record Rounds(
      KubernetesClient client,
      BenchNodes pool,
      AdmissionQuotas quotas,
      AdmissionWorkload workload,
      AdmissionWorkload warmup,
      CreateLoad load,
      String run,
      boolean profile) {

    AdmissionRound run(AdmissionSystem system, int round) throws Exception {
      String namespace = run + "-" + system.id() + "-" + round;
      log(system + ", round " + round + ": starting");
      return switch (system) {
        case KOORD4J -> koord4j(namespace, round);
        case KUEUE -> kueue(namespace, round);
        case NONE -> {
          try (BenchNamespace jobs = new BenchNamespace(client, namespace)) {
            yield measure(system, round, namespace, workload, q -> Map.of());
          }
        }
      };
    }

    private AdmissionRound koord4j(String namespace, int round) throws Exception {
      ManagerProcess manager = null;
      try {
        manager = startManager(round);
        quotas.awaitKoord4jQueues(START_TIMEOUT);
        return warmUpAndMeasure(
            AdmissionSystem.KOORD4J, round, namespace, quotas::koord4jLabels, quotas::bindKoord4jLeaves);
      } finally {
        if (manager != null) {
          manager.stop();
        }
        // As an uninstall does: a stopped manager leaves its configurations, which would refuse
        // the other systems' jobs.
        new WebhookRegistrar(client).delete(WebhookConfigurations.Names.prefixed(run));
      }
    }

    private AdmissionRound kueue(String namespace, int round) throws Exception {
      LocalCluster.script("kueue", "up");
      try {
        quotas.applyKueue();
        quotas.awaitKueueActive(START_TIMEOUT);
        return warmUpAndMeasure(
            AdmissionSystem.KUEUE, round, namespace, quotas::kueueLabels, quotas::applyKueueLocalQueues);
      } finally {
        quotas.deleteKueue(START_TIMEOUT);
        LocalCluster.script("kueue", "down");
      }
    }

    /**
     * The warm-up block, then the measured one, each in a namespace of its own.
     *
     * @param prepare what a namespace needs before the queue takes jobs in it
     */
    private AdmissionRound warmUpAndMeasure(
        AdmissionSystem system, int round, String namespace, IntFunction<Map<String, String>> labels,
        Consumer<String> prepare) throws InterruptedException {
      if (!warmup.jobs().isEmpty()) {
        log(system + ", round " + round + ": warm-up block");
        AdmissionRound warm = block(system, round, namespace + "-warmup", warmup, labels, prepare);
        log("warm-up: " + warm);
      }
      return block(system, round, namespace, workload, labels, prepare);
    }

    private AdmissionRound block(
        AdmissionSystem system, int round, String namespace, AdmissionWorkload jobs,
        IntFunction<Map<String, String>> labels, Consumer<String> prepare) throws InterruptedException {
      try (BenchNamespace created = new BenchNamespace(client, namespace)) {
        prepare.accept(namespace);
        for (int queue = 0; queue < AdmissionWorkload.QUEUES; queue++) {
          awaitHeld(namespace, labels.apply(queue));
        }
        AdmissionRound result = measure(system, round, namespace, jobs, labels);
        deleteJobs(namespace);
        return result;
      }
    }

    private AdmissionRound measure(
        AdmissionSystem system, int round, String namespace, AdmissionWorkload jobs,
        IntFunction<Map<String, String>> labels) throws InterruptedException {
      List<AdmissionWorkload.JobShape> shapes = jobs.jobs();
      long[] sent = new long[shapes.size()];
      double loadStart = loadAverage();
      Map<String, Double> writesBefore = ApiWrites.read(client);
      try (AdmissionTimes times = new AdmissionTimes(client, namespace, shapes)) {
        log(system + ", round " + round + ": creating " + shapes.size() + " jobs");
        LoadResult creation =
            load.run(
                shapes.size() / load.perSecond(),
                i -> {
                  AdmissionWorkload.JobShape shape = shapes.get(i);
                  Job job = AdmissionWorkload.job(namespace, shape, labels.apply(shape.queue()), pool);
                  sent[i] = System.nanoTime();
                  client.resource(job).create();
                });
        int created = creation.calls() - creation.failures();
        long deadline = System.nanoTime() + ROUND_TIMEOUT.toNanos();
        while (!times.await(created, Duration.ofSeconds(10))) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(system + ": " + times.progress() + " after " + ROUND_TIMEOUT);
          }
          log(system + ", round " + round + ": " + times.progress());
        }
        return new AdmissionRound(
            system,
            round,
            sent,
            times.started(),
            times.podsExist(),
            times.completed(),
            times.held(),
            creation,
            loadStart,
            loadAverage(),
            ApiWrites.between(writesBefore, ApiWrites.read(client)));
      }
    }

    /** The jobs go at once, their pods with them, before the namespace's pods are deleted. */
    private void deleteJobs(String namespace) {
      client.batch().v1().jobs().inNamespace(namespace)
          .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
    }

    /** Waits until the queue's webhook stores a queued job suspended (a dry run). */
    private void awaitHeld(String namespace, Map<String, String> labels) throws InterruptedException {
      Job probe = AdmissionWorkload.job(namespace, new AdmissionWorkload.JobShape(0, 0, 1, 1, 1), labels, pool);
      long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
      while (!isHeld(probe)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("no webhook suspends queued jobs after " + START_TIMEOUT);
        }
        Thread.sleep(500);
      }
    }

    private boolean isHeld(Job probe) {
      try {
        return Boolean.TRUE.equals(client.resource(probe).dryRun().create().getSpec().getSuspend());
      } catch (RuntimeException e) {
        return false;
      }
    }

    /** The manager's webhook, served as the chart serves it, registered by its URL on this machine. */
    private Map<String, String> webhookSettings() throws IOException {
      return Map.of(
          "KOORD4J_WEBHOOK", "true",
          "KOORD4J_WEBHOOK_URL_HOST", "127.0.0.1",
          "KOORD4J_WEBHOOK_PORT", Integer.toString(JavaProcess.freePort()),
          "KOORD4J_WEBHOOK_CONFIGURATION_PREFIX", run);
    }

    /**
     * The manager as deployed (the chart's JVM options, or {@code -Dbench.manager.javaOptions}), in
     * a JVM of its own that also serves the webhook, leading once it has opened its watches.
     */
    private ManagerProcess startManager(int round) throws Exception {
      String name = run + "-manager-" + round;
      Path logs = Path.of("target", "bench", "logs");
      Files.createDirectories(logs);
      List<String> options = new ArrayList<>(ManagerJvm.Config.chosen().javaOptions());
      if (profile) {
        options.add("-XX:StartFlightRecording=filename=" + logs.resolve(name + ".jfr") + ",settings=profile,dumponexit=true");
      }
      ManagerProcess manager =
          ManagerProcess.start(
              run + "-system", run + "-manager", Duration.ofSeconds(15), "bench/logs/" + name, options,
              webhookSettings());
      long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
      while (!Files.readString(manager.log()).contains("watches opened")) {
        if (!manager.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException("the manager did not start; see " + manager.log().toAbsolutePath());
        }
        Thread.sleep(500);
      }
      return manager;
    }
  }

  /** The machine's 1-minute load average: other work on a shared machine skews every system. */
  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  static void log(String message) {
    System.out.println("[B2 " + Instant.now() + "] " + message);
  }
}
