package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import io.koord4j.testing.TestJobs;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.testing.LocalCluster;
import io.koord4j.webhook.WebhookServer;
import io.koord4j.webhook.WebhookSettings;
import io.koord4j.webhook.http.AdmissionServer;
import io.koord4j.webhook.registration.WebhookConfigurations;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark B6: what the job webhook adds to job creation. Queued batch/v1 Jobs are created at a
 * fixed rate with the webhook server of {@link WebhookServer#withAllHandlers} running in this
 * process, alternately with its configuration removed (the Jobs are then sent suspended, as the
 * webhook would store them, so that no pod starts) and registered with the local API server. The
 * modes alternate in blocks so that both see the same store size and the same load from the rest
 * of a shared machine. An unmeasured warm-up in each mode comes first. The Jobs name a Queue that
 * exists, as jobs do, so the webhook answers from its cache.
 *
 * <p>System properties: {@code bench.b6.seconds} (per mode, 60), {@code bench.b6.rate} (creates
 * per second, 200), {@code bench.b6.threads} (client threads, 32), {@code bench.b6.warmup}
 * (seconds per mode, 5), {@code bench.b6.blocks} (blocks per mode, 3).
 * Writes {@code target/bench/B6.md}; deletes its namespaces and webhook configurations.
 */
public final class WebhookLatencyBenchmark {
  private static final String QUOTA = "bench";
  /** What the webhook's caches watch. */
  private static final String[] WEBHOOK_CRDS = {
    "elasticquotas.scheduling.sigs.k8s.io",
    "podgroups.scheduling.sigs.k8s.io",
    "queues.scheduling.x-k8s.io"
  };

  private WebhookLatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    double seconds = Double.parseDouble(System.getProperty("bench.b6.seconds", "60"));
    double rate = Double.parseDouble(System.getProperty("bench.b6.rate", "200"));
    int threads = Integer.getInteger("bench.b6.threads", 32);
    double warmup = Double.parseDouble(System.getProperty("bench.b6.warmup", "5"));
    int blocks = Integer.getInteger("bench.b6.blocks", 3);
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String ownNamespace = "bench-b6-own-" + suffix;
    String jobNamespace = "bench-b6-" + suffix;
    CreateLoad load = new CreateLoad(rate, threads);
    try (KubernetesClient client = BenchClients.admin(threads)) {
      WebhookServer server = null;
      try {
        LocalCluster.ensureCrds(client, WEBHOOK_CRDS);
        createNamespace(client, ownNamespace);
        createNamespace(client, jobNamespace);
        createQueue(client, jobNamespace);
        CompositeMeterRegistry registry = new CompositeMeterRegistry();
        server = WebhookServer.withAllHandlers(client, settings(ownNamespace, suffix), registry);
        server.start();
        WebhookSwitch webhook =
            new WebhookSwitch(
                client,
                "koord4j-bench-mutating-" + suffix,
                () -> isMutated(client, jobNamespace));
        webhook.await(true);
        log("warm-up with the webhook");
        load.run(warmup, i -> create(client, jobNamespace, "on-warmup-" + i, false));
        webhook.off();
        log("warm-up without the webhook");
        load.run(warmup, i -> create(client, jobNamespace, "off-warmup-" + i, true));
        SimpleMeterRegistry measured = percentileRegistry();
        registry.add(measured);
        LoadResult off = LoadResult.NONE;
        LoadResult on = LoadResult.NONE;
        List<Double> loads = new ArrayList<>(List.of(loadAverage()));
        for (int block = 0; block < blocks; block++) {
          String prefix = "-" + block + "-";
          log("block " + (block + 1) + "/" + blocks + " without the webhook");
          off = off.plus(load.run(seconds / blocks, i -> create(client, jobNamespace, "off" + prefix + i, true)));
          webhook.on();
          log("block " + (block + 1) + "/" + blocks + " with the webhook");
          on = on.plus(load.run(seconds / blocks, i -> create(client, jobNamespace, "on" + prefix + i, false)));
          webhook.off();
          loads.add(loadAverage());
        }
        Timer handler =
            measured
                .get(AdmissionServer.ADMISSION_TIMER)
                .tag("path", WebhookConfigurations.JOBS_PATH)
                .timer();
        boolean held = isSuspended(client, jobNamespace, "on-0-0");
        BenchReport.write("B6", markdown(seconds, rate, threads, blocks, off, on, handler, held, loads));
      } finally {
        if (server != null) {
          server.close();
          server.unregister();
        }
        client.namespaces().withName(jobNamespace).delete();
        client.namespaces().withName(ownNamespace).delete();
      }
    }
  }

  private static WebhookSettings settings(String ownNamespace, String suffix) {
    return WebhookSettings.defaults(ownNamespace)
        .withLocalUrl("127.0.0.1", 0)
        .withNames(
            "koord4j-bench-tls",
            new WebhookConfigurations.Names(
                "koord4j-bench-mutating-" + suffix, "koord4j-bench-validating-" + suffix));
  }

  /** Records the run's exact-window p50 and p99 besides the server's own buckets. */
  private static SimpleMeterRegistry percentileRegistry() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    registry
        .config()
        .meterFilter(
            new MeterFilter() {
              @Override
              public DistributionStatisticConfig configure(
                  Meter.Id id, DistributionStatisticConfig config) {
                return DistributionStatisticConfig.builder()
                    .percentiles(0.5, 0.99)
                    .percentilePrecision(2)
                    .expiry(Duration.ofDays(1))
                    .bufferLength(1)
                    .build()
                    .merge(config);
              }
            });
    return registry;
  }

  /** A queued Job of one short pod; {@code suspended} as the webhook would store it. */
  private static Job job(String name, boolean suspended) {
    return TestJobs.job(null, name, "100m")
        .editMetadata().addToLabels(WellKnown.QUOTA_NAME, QUOTA).endMetadata()
        .editSpec().withSuspend(suspended ? Boolean.TRUE : null).endSpec()
        .build();
  }

  private static void create(KubernetesClient client, String namespace, String name, boolean suspended) {
    client.batch().v1().jobs().inNamespace(namespace).resource(job(name, suspended)).create();
  }

  /** Whether a queued Job created now would be held by the webhook (a dry run). */
  private static boolean isMutated(KubernetesClient client, String namespace) {
    Job probe =
        client.batch().v1().jobs().inNamespace(namespace).resource(job("probe", false)).dryRun().create();
    return Boolean.TRUE.equals(probe.getSpec().getSuspend());
  }

  private static boolean isSuspended(KubernetesClient client, String namespace, String name) {
    Job job = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
    return job != null && Boolean.TRUE.equals(job.getSpec().getSuspend());
  }

  private static String markdown(
      double seconds, double rate, int threads, int blocks, LoadResult off, LoadResult on,
      Timer handler, boolean held, List<Double> loads) {
    ValueAtPercentile[] server = handler.takeSnapshot().percentileValues();
    List<String> lines =
        List.of(
            "# B6: job creation through the admission webhook",
            "",
            String.format(Locale.ROOT,
                "Queued batch/v1 Jobs created at %.0f/s for %.0f s per mode by %d client threads,"
                    + " in %d alternating blocks without and with koord4j's webhook (in-process,"
                    + " registered by URL on the local API server). Latency is client-side, per"
                    + " create call.",
                rate, seconds, threads, blocks),
            "",
            "| | webhook off | webhook on | added | on/off |",
            "|---|---:|---:|---:|---:|",
            row("creates", off.calls(), on.calls()),
            row("failed creates", off.failures(), on.failures()),
            String.format(Locale.ROOT, "| achieved rate (/s) | %.1f | %.1f | | |", off.rate(), on.rate()),
            latencyRow("client p50 (ms)", off.percentileMillis(0.5), on.percentileMillis(0.5)),
            latencyRow("client p99 (ms)", off.percentileMillis(0.99), on.percentileMillis(0.99)),
            "",
            String.format(Locale.ROOT,
                "Server side (`koord4j_webhook_admission_seconds{path=\"%s\"}`, arrival to answer):"
                    + " %d reviews, p50 %.2f ms, p99 %.2f ms, mean %.2f ms, max %.2f ms.",
                WebhookConfigurations.JOBS_PATH, handler.count(), millis(server, 0.5),
                millis(server, 0.99), handler.mean(TimeUnit.MILLISECONDS),
                handler.max(TimeUnit.MILLISECONDS)),
            "",
            "Jobs created with the webhook were stored suspended: " + (held ? "yes" : "NO") + ".",
            off.firstFailure().or(on::firstFailure).map(f -> "First failure: `" + f + "`").orElse(""),
            "",
            "Machine: " + Runtime.getRuntime().availableProcessors() + " CPUs, shared; 1-minute load"
                + " average at the start and after each block: " + loads.stream()
                    .map(load -> String.format(Locale.ROOT, "%.2f", load)).toList()
                + "; run at " + Instant.now() + ".");
    return String.join("\n", lines) + "\n";
  }

  private static String row(String name, int off, int on) {
    return String.format(Locale.ROOT, "| %s | %,d | %,d | | |", name, off, on);
  }

  private static String latencyRow(String name, double off, double on) {
    return String.format(
        Locale.ROOT, "| %s | %.1f | %.1f | %+.1f | %.2f |", name, off, on, on - off, on / off);
  }

  private static double millis(ValueAtPercentile[] values, double percentile) {
    for (ValueAtPercentile value : values) {
      if (value.percentile() == percentile) {
        return value.value(TimeUnit.MILLISECONDS);
      }
    }
    return Double.NaN;
  }

  /** The machine's 1-minute load average: other work on a shared machine skews both modes. */
  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static void createQueue(KubernetesClient client, String namespace) {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName(QUOTA).withNamespace(namespace).build());
    queue.setSpec(new QueueSpec());
    client.resource(queue).create();
  }

  private static void createNamespace(KubernetesClient client, String name) {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
  }

  private static void log(String message) {
    System.out.println("[B6 " + Instant.now() + "] " + message);
  }
}
