package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import io.koord4j.jobs.JobAdapter;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.manager.admission.AdmissionLoop;
import io.koord4j.manager.jobs.QueueUnits;
import io.koord4j.quota.kube.SystemQuotas;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.TestJobs;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

/**
 * Benchmark B7: the manager's memory and admission pass time with many pending QueueUnits stored
 * in the API server. Quotas of at most 1 CPU each get units of 2 CPUs, spread evenly, so that
 * every unit stays pending; each quota has its Queue, as koord-queue users create them. Then the
 * manager starts as a process of its own with a chosen maximum heap, as after a restart: once its
 * admission loop has loaded every unit, and again once its first pass has written every unit's
 * wait, a full collection runs and heap and resident set are read. Finally one new unit at a time
 * is created, each triggering a pass over all the pending units, and those passes are timed by the
 * manager's own pass timer. API writes to QueueUnits and Events during the run are counted from the
 * API server's request counters.
 *
 * <p>System properties: {@code bench.b7.units} (100,000), {@code bench.b7.quotas} (1,000), {@code
 * bench.b7.threads} (client threads creating them, 32), {@code bench.b7.xmx} (the manager's maximum
 * heap, 512m), {@code bench.b7.passes} (timed passes, 5), {@code bench.b7.writesPerSecond} (the
 * manager's {@code KOORD4J_STATUS_WRITES_PER_SECOND}, its default when unset: a higher limit only
 * reaches the state where every wait is written sooner). Writes {@code target/bench/B7.md};
 * deletes its namespace, its Queues and the system quotas the manager added.
 */
public final class ManagerMemoryBenchmark {
  private static final Pattern LOADED = Pattern.compile("admission loop started with (\\d+) units");
  private static final Duration DELETE_TIMEOUT = Duration.ofMinutes(20);
  /** Waits are written by the manager's status writer, stored or refused. */
  private static final String WAIT_WRITES = "koord4j_status_writer_writes_total";
  /** The system quotas there were before the manager started: the ones it adds are deleted. */
  private static List<String> existingSystemQuotas = List.of();

  private ManagerMemoryBenchmark() {}

  public static void main(String[] args) throws Exception {
    int unitCount = Integer.getInteger("bench.b7.units", 100_000);
    int quotaCount = Integer.getInteger("bench.b7.quotas", 1_000);
    int threads = Integer.getInteger("bench.b7.threads", 32);
    String maxHeap = System.getProperty("bench.b7.xmx", "512m");
    int passes = Integer.getInteger("bench.b7.passes", 5);
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String namespace = "bench-b7-" + suffix;
    String prefix = "b7-" + suffix + "-";
    List<String> lines = new ArrayList<>();
    try (KubernetesClient client = BenchClients.admin(threads)) {
      try {
        LocalCluster.ensureAllCrds(client);
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
        ensureNamespace(client, Queue.DEFAULT_NAMESPACE);
        log("creating " + quotaCount + " quotas and queues");
        createAll(client, threads, quotaCount, i -> quota(namespace, prefix + i));
        createAll(client, threads, quotaCount, i -> queue(prefix + i));
        log("creating " + unitCount + " queue units");
        long creating = System.nanoTime();
        createAll(client, threads, unitCount, i -> unit(namespace, "unit-" + i, prefix + (i % quotaCount), i % 10));
        double createSeconds = (System.nanoTime() - creating) / 1e9;
        existingSystemQuotas = SystemQuotas.all().stream().filter(quota -> client.resource(quota).get() != null).map(quota -> quota.getMetadata().getName()).toList();
        double loadBefore = loadAverage();
        PrometheusText apiBefore = PrometheusText.apiServer(client);
        int stored = unitCount;
        List<ManagerJvm.Config> configs = configs();
        for (int run = 0; run < configs.size(); run++) {
          lines.addAll(measure(client, namespace, prefix, run, configs.get(run), stored, maxHeap, passes));
          stored += passes;
        }
        PrometheusText apiAfter = PrometheusText.apiServer(client);
        lines.addAll(writes(apiBefore, apiAfter, unitCount, passes * configs.size()));
        lines.add(0, header(unitCount, quotaCount, maxHeap, threads, createSeconds));
        lines.add(String.format(Locale.ROOT,
            "Machine: %d CPUs, shared; 1-minute load average %.2f when the manager started, %.2f at"
                + " the end; run at %s.",
            Runtime.getRuntime().availableProcessors(), loadBefore, loadAverage(), Instant.now()));
        BenchReport.write("B7", String.join("\n", lines) + "\n");
      } finally {
        cleanUp(client, namespace, prefix, quotaCount);
      }
    }
  }

  /**
   * The chart's configuration of the manager (or {@code -Dbench.manager.javaOptions}), then those
   * of {@code -Dbench.b7.compare}, separated by "|".
   */
  private static List<ManagerJvm.Config> configs() {
    List<ManagerJvm.Config> configs = new ArrayList<>(List.of(ManagerJvm.Config.chosen()));
    for (String config : System.getProperty("bench.b7.compare", "").split("\\|")) {
      if (!config.isBlank()) {
        configs.add(ManagerJvm.Config.parse(config));
      }
    }
    return configs;
  }

  /**
   * Starts the manager with {@code config}, as run number {@code run} over the same stored units:
   * the first run writes every unit's wait, later ones find them written.
   */
  private static List<String> measure(
      KubernetesClient client, String namespace, String prefix, int run, ManagerJvm.Config config,
      int unitCount, String maxHeap, int passes) throws Exception {
    List<String> lines = new ArrayList<>();
    log("starting the manager with " + config);
    long started = System.nanoTime();
    try (ManagerJvm manager =
        ManagerJvm.start(namespace, prefix + "manager-" + run, config, maxHeap, managerSettings())) {
      String loaded = waitFor(manager, Duration.ofMinutes(30), () -> manager.lastLogged(LOADED));
      double loadSeconds = (System.nanoTime() - started) / 1e9;
      log("loaded " + loaded + " units after " + loadSeconds + " s");
      String afterLoad = memoryRow(manager, "loaded (before the first pass's writes)");
      // Logged as taken: a later step that fails must not lose them.
      log(afterLoad);
      waitFor(manager, Duration.ofMinutes(30), () -> pending(manager, prefix) >= unitCount ? "" : null);
      double firstPassSeconds = (System.nanoTime() - started) / 1e9 - loadSeconds;
      log("first pass published after " + firstPassSeconds + " s more");
      // Settled once the status writer is idle and has written nothing for 5 s: while units wait
      // unexplained, passes follow one another and hand it more.
      double[] last = {-1};
      waitFor(manager, Duration.ofMinutes(120), () -> {
        PrometheusText metrics = manager.metrics();
        double writes = counter(metrics, WAIT_WRITES);
        boolean settled = writes == last[0] && counter(metrics, "koord4j_status_writer_queued") == 0;
        last[0] = writes;
        Thread.sleep(5000);
        return settled ? "" : null;
      });
      double explainSeconds = (System.nanoTime() - started) / 1e9 - loadSeconds - firstPassSeconds;
      PrometheusText before = manager.metrics();
      log("every wait written after " + explainSeconds + " s more");
      String steady = memoryRow(manager, "every unit's wait written (steady)");
      List<String> histogram = manager.classHistogram(12);
      List<String> areas = manager.committedByArea();
      log(steady);
      histogram.forEach(ManagerMemoryBenchmark::log);
      areas.forEach(ManagerMemoryBenchmark::log);
      List<Double> passMillis = timedPasses(client, manager, namespace, prefix, run, unitCount, passes);
      PrometheusText after = manager.metrics();
      List<String> pauses = manager.gcPauses();
      pauses.forEach(ManagerMemoryBenchmark::log);
      double passWrites = counter(after, WAIT_WRITES) - counter(before, WAIT_WRITES)
          + counter(after, "koord4j_admission_status_writes_total")
          - counter(before, "koord4j_admission_status_writes_total");
      lines.add("");
      lines.add(String.format(Locale.ROOT, "## Manager run %d: `%s`", run + 1, config));
      lines.add("");
      lines.add(String.format(Locale.ROOT,
          "The manager's admission loop had loaded %s units (ours and any others in the cluster)"
              + " %.1f s after its JVM started; its first pass was published %.1f s later. Each"
              + " unit's wait is written once (a status write and an Event) by the status writer,"
              + " each pass explaining waits for at most %d ms: %,.0f status writes in %,.0f passes"
              + " took %.0f s more.",
          loaded, loadSeconds, firstPassSeconds, AdmissionLoop.EXPLAINING_PER_PASS.toMillis(),
          counter(before, WAIT_WRITES),
          counter(before, "koord4j_admission_pass_seconds_count"), explainSeconds));
      lines.add("");
      lines.add("| after a full GC | heap used (MiB) | heap committed (MiB) | RSS (MiB) | peak RSS (MiB) |");
      lines.add("|---|---:|---:|---:|---:|");
      lines.add(afterLoad);
      lines.add(steady);
      lines.add("");
      lines.add(String.format(Locale.ROOT,
          "Admission passes over %,d pending units, each triggered by one new unit (the manager's"
              + " `koord4j_admission_pass_seconds`): %s ms; mean %.1f ms. Status writes by these"
              + " passes: %.0f.",
          unitCount, passMillis.stream().map(ms -> String.format(Locale.ROOT, "%.1f", ms)).toList(),
          passMillis.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
          passWrites));
      lines.add("");
      lines.add("The collector's own pauses over the whole run (its GC log; the benchmark's full GCs left out):");
      lines.add("");
      lines.add("| pause | count | longest (ms) | total (ms) |");
      lines.add("|---|---:|---:|---:|");
      lines.addAll(pauses);
      lines.add("");
      lines.add("Heap by class after the steady full GC (`jcmd GC.class_histogram`, top 12):");
      lines.add("");
      lines.add("```");
      lines.addAll(histogram);
      lines.add("```");
      lines.add("");
      if (areas.isEmpty()) {
        lines.add("Native memory tracking was off in this run.");
      } else {
        lines.add("The JVM's committed memory by area at the same time (`jcmd VM.native_memory summary`):");
        lines.add("");
        lines.add("| area | committed (MiB) |");
        lines.add("|---|---:|");
        lines.addAll(areas);
      }
    }
    return lines;
  }

  private static Map<String, String> managerSettings() {
    String writesPerSecond = System.getProperty("bench.b7.writesPerSecond");
    return writesPerSecond == null ? Map.of() : Map.of("KOORD4J_STATUS_WRITES_PER_SECOND", writesPerSecond);
  }

  /**
   * Creates one unit at a time in the first quota and waits for the pass it triggers, reading the
   * pass's time from the manager's pass timer.
   */
  private static List<Double> timedPasses(
      KubernetesClient client, ManagerJvm manager, String namespace, String prefix, int run,
      int unitCount, int passes) throws Exception {
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < passes; i++) {
      PrometheusText before = manager.metrics();
      client.resource(unit(namespace, "extra-" + run + "-" + i, prefix + 0, 0)).create();
      int expected = unitCount + i + 1;
      waitFor(manager, Duration.ofMinutes(5), () -> pending(manager, prefix) >= expected ? "" : null);
      PrometheusText after = manager.metrics();
      double count = counter(after, "koord4j_admission_pass_seconds_count")
          - counter(before, "koord4j_admission_pass_seconds_count");
      double seconds = counter(after, "koord4j_admission_pass_seconds_sum")
          - counter(before, "koord4j_admission_pass_seconds_sum");
      millis.add(seconds * 1000 / count);
    }
    return millis;
  }

  /** Pending units in the benchmark's queues, as the manager's last pass saw them. */
  private static double pending(ManagerJvm manager, String prefix) throws Exception {
    return manager.metrics().sum(
        "koord4j_queue_units",
        sample -> "pending".equals(sample.label("state")) && sample.label("queue").startsWith(prefix));
  }

  private static double counter(PrometheusText metrics, String name) {
    return metrics.sum(name, sample -> true);
  }

  private static String memoryRow(ManagerJvm manager, String when) throws Exception {
    manager.fullGc();
    long[] heap = manager.heapKiB();
    return String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.0f |", when,
        heap[0] / 1024.0, heap[1] / 1024.0, manager.procStatusKiB("VmRSS") / 1024.0,
        manager.procStatusKiB("VmHWM") / 1024.0);
  }

  /** The API server's count of writes to QueueUnits (by verb and subresource) and of Events. */
  private static List<String> writes(PrometheusText before, PrometheusText after, int unitCount, int passes) {
    List<String> lines = new ArrayList<>();
    lines.add("");
    lines.add("API writes while the manager ran (the API server's `apiserver_request_total`; the"
        + " " + passes + " unit creates of the timed passes are the benchmark's own):");
    lines.add("");
    lines.add("| resource | verb | subresource | requests |");
    lines.add("|---|---|---|---:|");
    for (PrometheusText.Sample sample : after.samples("apiserver_request_total")) {
      String resource = sample.label("resource");
      String verb = sample.label("verb");
      if (!List.of("queueunits", "events", "elasticquotas", "queues").contains(resource)
          || List.of("GET", "LIST", "WATCH").contains(verb)) {
        continue;
      }
      double delta = sample.value() - before.sum("apiserver_request_total", sample::sameSeries);
      if (delta > 0) {
        lines.add(String.format(Locale.ROOT, "| %s | %s | %s | %,.0f |",
            resource, verb, sample.label("subresource"), delta));
      }
    }
    lines.add("");
    lines.add(String.format(Locale.ROOT,
        "(%,d units: a status write per unit is its first wait being written once.)", unitCount));
    return lines;
  }

  private static String header(int units, int quotas, String maxHeap, int threads, double createSeconds) {
    return String.join("\n",
        "# B7: manager memory with many pending queue units",
        "",
        String.format(Locale.ROOT,
            "%,d pending QueueUnits (batch/v1 Job units of one 2-CPU pod, priorities 0-9) in %,d"
                + " queues over %,d ElasticQuotas of at most 1 CPU each, stored in the API server"
                + " by %d client threads in %.0f s; the manager runs as its own JVM, -Xmx%s and"
                + " settings %s, first with the chart's JVM options and environment (unless"
                + " `-Dbench.manager.javaOptions` says others), then with each configuration of"
                + " `-Dbench.b7.compare`, one after another over the same units.",
            units, quotas, quotas, threads, createSeconds, maxHeap, managerSettings()));
  }

  // ---- objects

  private static ElasticQuota quota(String namespace, String name) {
    ElasticQuota quota = new ElasticQuota();
    quota.getMetadata().setName(name);
    quota.getMetadata().setNamespace(namespace);
    quota.getMetadata().setLabels(Map.of(WellKnown.QUOTA_PARENT, "", WellKnown.QUOTA_IS_PARENT, "false"));
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    spec.setMin(Map.of("cpu", new Quantity("0")));
    spec.setMax(Map.of("cpu", new Quantity("1")));
    quota.setSpec(spec);
    return quota;
  }

  /** The quota's Queue where koord-queue keeps them, created before the manager, as users do. */
  private static Queue queue(String name) {
    Queue queue = new Queue();
    queue.getMetadata().setName(name);
    queue.getMetadata().setNamespace(Queue.DEFAULT_NAMESPACE);
    queue.setSpec(new QueueSpec());
    return queue;
  }

  /**
   * The unit the manager makes for a one-pod Job of 2 CPUs labelled with the quota, without the
   * owner reference: no such Job exists, and the garbage collector would delete the unit.
   */
  @SuppressWarnings("unchecked")
  private static QueueUnit unit(String namespace, String name, String quota, int priority) {
    Job job = TestJobs.job(namespace, name, "2")
        .editMetadata().withUid(UUID.randomUUID().toString()).addToLabels(WellKnown.QUOTA_NAME, quota).endMetadata()
        .build();
    JobAdapter<Job> adapter =
        (JobAdapter<Job>) JobAdapters.builtIn().find("batch/v1", "Job").orElseThrow();
    QueueUnit unit = QueueUnits.desired(adapter, job, quota, priority);
    unit.getMetadata().setOwnerReferences(null);
    return unit;
  }

  // ---- helpers

  /** Creates {@code count} objects from many threads; fails on the first refusal. */
  private static void createAll(
      KubernetesClient client, int threads, int count, IntFunction<HasMetadata> object)
      throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    AtomicInteger done = new AtomicInteger();
    for (int i = 0; i < count; i++) {
      int index = i;
      pool.execute(() -> {
        if (failure.get() != null) {
          return;
        }
        try {
          client.resource(object.apply(index)).create();
          if (done.incrementAndGet() % 10_000 == 0) {
            log(done.get() + " created");
          }
        } catch (RuntimeException e) {
          failure.compareAndSet(null, e);
        }
      });
    }
    pool.shutdown();
    pool.awaitTermination(2, TimeUnit.HOURS);
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  private interface Check {
    String value() throws Exception;
  }

  /** Polls until {@code check} gives a value, failing if the manager exits or time runs out. */
  private static String waitFor(ManagerJvm manager, Duration timeout, Check check) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      manager.checkAlive();
      String value = check.value();
      if (value != null) {
        return value;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the manager did not get there within " + timeout + "; see " + manager.log());
      }
      Thread.sleep(500);
    }
  }

  private static void ensureNamespace(KubernetesClient client, String name) {
    if (client.namespaces().withName(name).get() == null) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    }
  }

  /** Deletes the namespace (units, quotas, events) and the Queues, and waits until they are gone. */
  private static void cleanUp(KubernetesClient client, String namespace, String prefix, int quotaCount)
      throws InterruptedException {
    log("cleaning up");
    for (int i = 0; i < quotaCount; i++) {
      client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE).withName(prefix + i).delete();
    }
    SystemQuotas.all().stream()
        .filter(quota -> !existingSystemQuotas.contains(quota.getMetadata().getName()))
        .forEach(quota -> client.resource(quota).delete());
    client.namespaces().withName(namespace).delete();
    long deadline = System.nanoTime() + DELETE_TIMEOUT.toNanos();
    while (client.namespaces().withName(namespace).get() != null && System.nanoTime() < deadline) {
      Thread.sleep(2000);
    }
    log("namespace " + namespace + (client.namespaces().withName(namespace).get() == null ? " deleted" : " still being deleted"));
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static void log(String message) {
    System.out.println("[B7 " + Instant.now() + "] " + message);
  }
}
