package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.testing.JavaProcess;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.TestJobs;
import io.koord4j.webhook.WebhookMain;
import io.koord4j.webhook.registration.WebhookConfigurations;
import io.koord4j.webhook.registration.WebhookRegistrar;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Benchmark B6: what a job webhook adds to job creation, koord4j's against Kueue's. Batch/v1 Jobs
 * labelled with a queue ({@code kueue.x-k8s.io/queue-name}) are created at a fixed rate, in
 * alternating blocks: with no webhook (the Jobs are then sent suspended, as a webhook would store
 * them, so that no pod starts), with koord4j's webhook ({@link WebhookMain}, a JVM of its own as
 * deployed) registered with the local API server, and with Kueue 0.17's own
 * Job webhooks (mutating and validating, {@code cluster.sh kueue up}) instead. Only one side's
 * configurations are registered at a time. The blocks alternate so that every side sees the same
 * store size and the same load from the rest of a shared machine; an unmeasured warm-up of each
 * side comes first. The Jobs name a queue that exists for both (a koord4j Queue, and a Kueue
 * LocalQueue of a ClusterQueue without quota), so each webhook answers from its cache and no job
 * starts.
 *
 * <p>Besides the client's latency per create, the API server's own histogram of the time it waited
 * for each webhook, koord4j's timers of its reviews (receipt and answer) and the CPU time of the
 * API server, Kueue and koord4j's webhook are read before and after each block.
 *
 * <p>System properties: {@code bench.b6.seconds} (per side, 60), {@code bench.b6.rate} (creates
 * per second, 200), {@code bench.b6.threads} (client threads, 32), {@code bench.b6.warmup}
 * (seconds per side, 5), {@code bench.b6.blocks} (blocks per side, 3), {@code
 * bench.b6.webhookJavaOptions} (more JVM options of koord4j's webhook, e.g. a flight recording).
 * Writes {@code target/bench/B6.md}; deletes its namespaces, queues and webhook configurations,
 * and stops Kueue.
 */
public final class WebhookLatencyBenchmark {
  private static final String QUEUE = "bench";
  /** koord4j's review timers and connection counter, as its {@code /metrics} names them. */
  private static final String ADMISSION_SECONDS = "koord4j_webhook_admission_seconds";
  private static final String RECEIPT_SECONDS = "koord4j_webhook_review_receipt_seconds";
  private static final String CONNECTIONS_TOTAL = "koord4j_webhook_connections_total";
  /** 75 % (the chart's MaxRAMPercentage) of the manager's 1 GiB memory limit in the chart. */
  private static final String WEBHOOK_HEAP = "768m";
  /** The handler alone: rounds of reviews from cold until compiled. */
  private static final int HANDLER_ROUNDS = 8;
  private static final int HANDLER_REVIEWS_PER_ROUND = 3_000;
  /** What the webhook's caches watch. */
  private static final String KUEUE_MUTATING = "kueue-mutating-webhook-configuration";
  private static final String KUEUE_VALIDATING = "kueue-validating-webhook-configuration";

  private WebhookLatencyBenchmark() {}

  /** One way of creating the jobs: its name, and whether the client sends them suspended. */
  private record Side(String name, boolean suspendedByClient, WebhookSwitch webhook) {
    void on() throws InterruptedException {
      if (webhook != null) {
        webhook.on();
      }
    }

    void off() throws InterruptedException {
      if (webhook != null) {
        webhook.off();
      }
    }
  }

  public static void main(String[] args) throws Exception {
    double seconds = Double.parseDouble(System.getProperty("bench.b6.seconds", "60"));
    double rate = Double.parseDouble(System.getProperty("bench.b6.rate", "200"));
    int threads = Integer.getInteger("bench.b6.threads", 32);
    double warmup = Double.parseDouble(System.getProperty("bench.b6.warmup", "5"));
    int blocks = Integer.getInteger("bench.b6.blocks", 3);
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String ownNamespace = "bench-b6-own-" + suffix;
    String jobNamespace = "bench-b6-" + suffix;
    String clusterQueue = "bench-b6-" + suffix;
    String configurationPrefix = "koord4j-bench-" + suffix;
    WebhookConfigurations.Names names = WebhookConfigurations.Names.prefixed(configurationPrefix);
    CreateLoad load = new CreateLoad(rate, threads);
    try (KubernetesClient client = BenchClients.admin(threads)) {
      JavaProcess webhook = null;
      try {
        LocalCluster.ensureAllCrds(client);
        BenchNamespace.awaitNoneTerminating(client);
        log("starting Kueue");
        LocalCluster.script("kueue", "up");
        createNamespace(client, ownNamespace);
        createNamespace(client, jobNamespace);
        createQueues(client, jobNamespace, clusterQueue);
        BooleanSupplier mutated = () -> isMutated(client, jobNamespace);
        WebhookSwitch kueue = new WebhookSwitch(client, KUEUE_MUTATING, KUEUE_VALIDATING, mutated);
        kueue.off();
        log("koord4j's job handler alone");
        JobReviewLoop.Result handlerAlone =
            JobReviewLoop.run(defaultedJob(client, jobNamespace), HANDLER_ROUNDS, HANDLER_REVIEWS_PER_ROUND);
        int probePort = JavaProcess.freePort();
        webhook = startWebhook(ownNamespace, configurationPrefix, probePort);
        awaitServing(webhook, mutated);
        WebhookSwitch koord4j = new WebhookSwitch(client, names.mutating(), null, mutated);
        koord4j.off();
        List<Side> sides =
            List.of(new Side("none", true, null), new Side("koord4j", false, koord4j), new Side("Kueue", false, kueue));
        for (Side side : sides) {
          log("warm-up: " + side.name());
          side.on();
          load.run(warmup, i -> create(client, jobNamespace, side.name() + "-warmup-" + i, side.suspendedByClient()));
          side.off();
        }
        Map<String, LoadResult> results = new LinkedHashMap<>();
        sides.forEach(side -> results.put(side.name(), LoadResult.NONE));
        HistogramIncrease atServer = new HistogramIncrease(HistogramIncrease.API_SERVER_WEBHOOKS, "name");
        HistogramIncrease handler = new HistogramIncrease(ADMISSION_SECONDS, "path");
        HistogramIncrease receipt = new HistogramIncrease(RECEIPT_SECONDS, "path");
        double connections = 0;
        CpuTimes cpu =
            new CpuTimes(Map.of(
                "API server", clusterPid("kube-apiserver"), "Kueue", clusterPid("kueue"), "koord4j's webhook",
                webhook.pid()));
        List<Double> loads = new ArrayList<>(List.of(loadAverage()));
        for (int block = 0; block < blocks; block++) {
          // The two webhooks take turns at going first.
          List<Side> order = block % 2 == 0 ? sides : List.of(sides.get(0), sides.get(2), sides.get(1));
          for (Side side : order) {
            String prefix = side.name().toLowerCase(Locale.ROOT) + "-" + block + "-";
            log("block " + (block + 1) + "/" + blocks + ": " + side.name());
            side.on();
            PrometheusText before = PrometheusText.apiServer(client);
            PrometheusText webhookBefore = PrometheusText.scrape(probePort);
            CpuTimes.Reading cpuBefore = cpu.read();
            LoadResult result =
                load.run(seconds / blocks, i -> create(client, jobNamespace, prefix + i, side.suspendedByClient()));
            cpu.add(side.name(), cpuBefore);
            PrometheusText webhookAfter = PrometheusText.scrape(probePort);
            atServer.add(before, PrometheusText.apiServer(client));
            handler.add(webhookBefore, webhookAfter);
            receipt.add(webhookBefore, webhookAfter);
            connections += webhookAfter.sum(CONNECTIONS_TOTAL, sample -> true)
                - webhookBefore.sum(CONNECTIONS_TOTAL, sample -> true);
            results.merge(side.name(), result, LoadResult::plus);
            side.off();
          }
          loads.add(loadAverage());
        }
        boolean held =
            isSuspended(client, jobNamespace, "koord4j-0-0") && isSuspended(client, jobNamespace, "kueue-0-0");
        BenchReport.write(
            "B6",
            markdown(
                new Run(seconds, rate, threads, blocks, loads), results, atServer, handler, receipt,
                Math.round(connections), cpu, handlerAlone, held));
      } finally {
        if (webhook != null) {
          webhook.stop();
        }
        new WebhookRegistrar(client).delete(names);
        LocalCluster.script("kueue", "down");
        releaseKueueObjects(client, jobNamespace, clusterQueue);
        client.namespaces().withName(jobNamespace).delete();
        client.namespaces().withName(ownNamespace).delete();
        client.genericKubernetesResources("kueue.x-k8s.io/v1beta2", "ClusterQueue").withName(clusterQueue).delete();
      }
    }
  }

  /** What was run: creates per second for how long, by how many threads, in how many blocks, at what load. */
  private record Run(double seconds, double rate, int threads, int blocks, List<Double> loads) {}

  /**
   * koord4j's webhook alone in a JVM of its own ({@link WebhookMain}), with the JVM options and
   * environment the chart gives the manager, which serves it when deployed, and the heap the
   * chart's memory limit gives it; its configurations point the API server at 127.0.0.1.
   */
  private static JavaProcess startWebhook(String ownNamespace, String configurationPrefix, int probePort)
      throws IOException {
    Map<String, String> environment = new HashMap<>(ChartJvmOptions.environment("manager"));
    environment.putAll(Map.of(
        "KOORD4J_NAMESPACE", ownNamespace,
        "KOORD4J_WEBHOOK_URL_HOST", "127.0.0.1",
        "KOORD4J_WEBHOOK_PORT", Integer.toString(JavaProcess.freePort()),
        "KOORD4J_WEBHOOK_CONFIGURATION_PREFIX", configurationPrefix,
        "KOORD4J_HTTP_PORT", Integer.toString(probePort)));
    List<String> options = new ArrayList<>(ChartJvmOptions.of("manager"));
    options.add("-Xmx" + WEBHOOK_HEAP);
    String more = System.getProperty("bench.b6.webhookJavaOptions", "").strip();
    if (!more.isEmpty()) {
      options.addAll(List.of(more.split("\\s+")));
    }
    return JavaProcess.start(
        WebhookMain.class.getName(), options, environment, Path.of("target", "bench", "logs", "b6-webhook.log"));
  }

  /** Until a queued Job would be held: the webhook fills its caches, serves and registers itself first. */
  private static void awaitServing(JavaProcess webhook, BooleanSupplier mutated) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!mutated.getAsBoolean()) {
      if (!webhook.isAlive()) {
        throw new IllegalStateException("koord4j's webhook exited:\n" + webhook.logTail(20));
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("koord4j's webhook did not hold a queued Job within 120 s; see " + webhook);
      }
      Thread.sleep(200);
    }
  }

  /**
   * A namespace being deleted, such as an earlier run's with its thousands of Jobs, keeps the API
   * server and etcd busy for minutes: measured beside it, every side would be slower.
   */
  /** A process of the local cluster by name, e.g. {@code kube-apiserver}. */
  private static long clusterPid(String name) {
    return Long.parseLong(LocalCluster.script("pid", name).strip());
  }

  /** The queued Job as the API server hands it to a webhook: defaulted (a dry run, no webhook registered). */
  private static Job defaultedJob(KubernetesClient client, String namespace) {
    return client.batch().v1().jobs().inNamespace(namespace).resource(job("review", false)).dryRun().create();
  }

  /** A queued Job of one short pod; {@code suspended} as a webhook would store it. */
  private static Job job(String name, boolean suspended) {
    return TestJobs.job(null, name, "100m")
        .editMetadata().addToLabels(WellKnown.KUEUE_QUEUE_NAME, QUEUE).endMetadata()
        .editSpec().withSuspend(suspended ? Boolean.TRUE : null).endSpec()
        .build();
  }

  private static void create(KubernetesClient client, String namespace, String name, boolean suspended) {
    client.batch().v1().jobs().inNamespace(namespace).resource(job(name, suspended)).create();
  }

  /** Whether a queued Job created now would be held by a webhook (a dry run). */
  private static boolean isMutated(KubernetesClient client, String namespace) {
    Job probe =
        client.batch().v1().jobs().inNamespace(namespace).resource(job("probe", false)).dryRun().create();
    return Boolean.TRUE.equals(probe.getSpec().getSuspend());
  }

  private static boolean isSuspended(KubernetesClient client, String namespace, String name) {
    Job job = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
    return job != null && Boolean.TRUE.equals(job.getSpec().getSuspend());
  }

  private static String timerRow(String what, String metric, HistogramIncrease timer, String path) {
    return String.format(Locale.ROOT, "| %s (`%s{path=\"%s\"}`) | %,d | %.2f | %.2f | %.2f | %.1f %% |",
        what, metric, path, timer.count(path), timer.meanMillis(path), timer.quantileMillis(path, 0.5),
        timer.quantileMillis(path, 0.99), 100 * timer.shareWithin(path, 5));
  }

  private static String markdown(
      Run run, Map<String, LoadResult> results, HistogramIncrease atServer, HistogramIncrease handler,
      HistogramIncrease receipt, long connections, CpuTimes cpu, JobReviewLoop.Result handlerAlone, boolean held) {
    LoadResult none = results.get("none");
    LoadResult koord4j = results.get("koord4j");
    LoadResult kueue = results.get("Kueue");
    String jobs = WebhookConfigurations.JOBS_PATH;
    List<String> lines = new ArrayList<>(List.of(
        "# B6: job creation through koord4j's and Kueue's job webhooks",
        "",
        String.format(Locale.ROOT,
            "Queued batch/v1 Jobs created at %.0f/s for %.0f s per side by %d client threads, in"
                + " %d alternating blocks: no webhook, koord4j's webhook (`WebhookMain`, a JVM of its"
                + " own with the chart's options, registered by URL on the local API server) and"
                + " Kueue 0.17's Job webhooks (its manager on the same machine, registered by URL)."
                + " Latency is client-side, per create call; CPU is each process's own, per create.",
            run.rate(), run.seconds(), run.threads(), run.blocks()),
        "",
        "| | no webhook | koord4j | Kueue |",
        "|---|---:|---:|---:|",
        String.format(Locale.ROOT, "| creates | %,d | %,d | %,d |", none.calls(), koord4j.calls(), kueue.calls()),
        String.format(Locale.ROOT, "| failed creates | %,d | %,d | %,d |",
            none.failures(), koord4j.failures(), kueue.failures()),
        String.format(Locale.ROOT, "| achieved rate (/s) | %.1f | %.1f | %.1f |",
            none.rate(), koord4j.rate(), kueue.rate()),
        latencyRow("client p50 (ms)", 0.5, none, koord4j, kueue),
        latencyRow("client p99 (ms)", 0.99, none, koord4j, kueue),
        addedRow("added p50 (ms)", 0.5, none, koord4j, kueue),
        addedRow("added p99 (ms)", 0.99, none, koord4j, kueue)));
    for (String process : cpu.processes()) {
      lines.add(String.format(Locale.ROOT, "| CPU of %s per create (ms) | %.2f | %.2f | %.2f |", process,
          cpuPerCreate(cpu, "none", process, none), cpuPerCreate(cpu, "koord4j", process, koord4j),
          cpuPerCreate(cpu, "Kueue", process, kueue)));
    }
    lines.addAll(List.of(
        "",
        String.format(Locale.ROOT,
            "Added latency, koord4j / Kueue: p50 %.2f, p99 %.2f (goal ≤ 1.0).",
            added(0.5, none, koord4j) / added(0.5, none, kueue),
            added(0.99, none, koord4j) / added(0.99, none, kueue)),
        "",
        "The API server's wait per webhook (`" + HistogramIncrease.API_SERVER_WEBHOOKS + "`, increase"
            + " over the measured blocks; its buckets end at 5, 25, 100 and 500 ms, so quantiles are"
            + " interpolated):",
        "",
        "| webhook | calls | mean (ms) | p50 (ms) | p99 (ms) | within 5 ms |",
        "|---|---:|---:|---:|---:|---:|"));
    for (String name : atServer.observed()) {
      lines.add(String.format(Locale.ROOT, "| %s | %,d | %.2f | %.2f | %.2f | %.1f %% |",
          name, atServer.count(name), atServer.meanMillis(name), atServer.quantileMillis(name, 0.5),
          atServer.quantileMillis(name, 0.99), 100 * atServer.shareWithin(name, 5)));
    }
    lines.addAll(List.of(
        "",
        "koord4j's server per review (buckets at 1, 2, 5, 10, 25 ms and up); connections the API server"
            + " opened to it in the measured blocks: " + connections + ".",
        "",
        "| | reviews | mean (ms) | p50 (ms) | p99 (ms) | within 5 ms |",
        "|---|---:|---:|---:|---:|---:|",
        timerRow("the review's last byte to its answer", ADMISSION_SECONDS, handler, jobs),
        timerRow("the review's headers to its last byte (sent by the API server)", RECEIPT_SECONDS, receipt, jobs),
        "",
        String.format(Locale.ROOT,
            "koord4j's job handler alone (`AdmissionEndpoint.reply` in the benchmark's JVM before the"
                + " load, one thread, a queued Job's review as the API server sends it): CPU per review"
                + " in rounds of %,d from cold, %s µs; the JVM's CPU for those %,d reviews %.1f s"
                + " (compiling included) against %.1f s at the last round's rate.",
            handlerAlone.perRound(), handlerAlone.microsPerReview().stream()
                .map(micros -> String.format(Locale.ROOT, "%.0f", micros)).toList(),
            handlerAlone.reviews(), handlerAlone.processCpu().toMillis() / 1000.0,
            handlerAlone.atCompiledRate().toMillis() / 1000.0),
        "",
        "Jobs created through either webhook were stored suspended: " + (held ? "yes" : "NO") + ".",
        none.firstFailure().or(koord4j::firstFailure).or(kueue::firstFailure)
            .map(f -> "First failure: `" + f + "`").orElse(""),
        "",
        "Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs, shared; 1-minute load"
            + " average at the start and after each block: " + run.loads().stream()
                .map(load -> String.format(Locale.ROOT, "%.2f", load)).toList()
            + "; run at " + Instant.now() + "."));
    return String.join("\n", lines) + "\n";
  }

  private static double cpuPerCreate(CpuTimes cpu, String side, String process, LoadResult result) {
    return cpu.spent(side, process).toNanos() / 1e6 / result.calls();
  }

  private static String latencyRow(String name, double quantile, LoadResult... sides) {
    return String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f |", name,
        sides[0].percentileMillis(quantile), sides[1].percentileMillis(quantile),
        sides[2].percentileMillis(quantile));
  }

  private static String addedRow(String name, double quantile, LoadResult none, LoadResult koord4j, LoadResult kueue) {
    return String.format(Locale.ROOT, "| %s | | %+.1f | %+.1f |", name,
        added(quantile, none, koord4j), added(quantile, none, kueue));
  }

  private static double added(double quantile, LoadResult none, LoadResult side) {
    return side.percentileMillis(quantile) - none.percentileMillis(quantile);
  }

  /** The machine's 1-minute load average: other work on a shared machine skews both modes. */
  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /** koord4j's Queue, and Kueue's LocalQueue of a ClusterQueue without quota, both named {@value #QUEUE}. */
  private static void createQueues(KubernetesClient client, String namespace, String clusterQueue) {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName(QUEUE).withNamespace(namespace).build());
    queue.setSpec(new QueueSpec());
    client.resource(queue).create();
    client.resource(kueueObject("ClusterQueue", clusterQueue, null, Map.of("namespaceSelector", Map.of()))).create();
    client.resource(kueueObject("LocalQueue", QUEUE, namespace, Map.of("clusterQueue", clusterQueue))).create();
  }

  /**
   * Drops the finalizers Kueue put on its Workloads and ClusterQueue: with Kueue stopped nothing
   * else removes them, and they would keep the namespace from being deleted.
   */
  private static void releaseKueueObjects(KubernetesClient client, String namespace, String clusterQueue) {
    String noFinalizers = "{\"metadata\":{\"finalizers\":null}}";
    client.genericKubernetesResources("kueue.x-k8s.io/v1beta2", "Workload").inNamespace(namespace).list().getItems()
        .forEach(workload -> client.genericKubernetesResources("kueue.x-k8s.io/v1beta2", "Workload")
            .inNamespace(namespace).withName(workload.getMetadata().getName())
            .patch(PatchContext.of(PatchType.JSON_MERGE), noFinalizers));
    var queue = client.genericKubernetesResources("kueue.x-k8s.io/v1beta2", "ClusterQueue").withName(clusterQueue);
    if (queue.get() != null) {
      queue.patch(PatchContext.of(PatchType.JSON_MERGE), noFinalizers);
    }
  }

  private static GenericKubernetesResource kueueObject(
      String kind, String name, String namespace, Map<String, Object> spec) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion("kueue.x-k8s.io/v1beta2");
    object.setKind(kind);
    object.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    object.setAdditionalProperty("spec", spec);
    return object;
  }

  private static void createNamespace(KubernetesClient client, String name) {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
  }

  private static void log(String message) {
    System.out.println("[B6 " + Instant.now() + "] " + message);
  }
}
