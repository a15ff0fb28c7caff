package io.koord4j.koordlet;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.concurrent.DaemonThreads;
import io.koord4j.koordlet.cgroup.CgroupFiles;
import io.koord4j.koordlet.cgroup.CgroupLayout;
import io.koord4j.koordlet.cgroup.KubeQos;
import io.koord4j.koordlet.device.DeviceReporter;
import io.koord4j.koordlet.device.GpuInventory;
import io.koord4j.koordlet.device.NvidiaInventory;
import io.koord4j.koordlet.device.NvidiaSmiCommand;
import io.koord4j.koordlet.metrics.PodRef;
import io.koord4j.koordlet.metrics.ProcFiles;
import io.koord4j.koordlet.metrics.UsageCollector;
import io.koord4j.koordlet.qos.BatchCgroupReconciler;
import io.koord4j.koordlet.qos.CpuSuppressor;
import io.koord4j.koordlet.qos.KubePodEvictor;
import io.koord4j.koordlet.qos.MemoryEvictor;
import io.koord4j.koordlet.report.CollectPolicy;
import io.koord4j.koordlet.report.NodeMetricReporter;
import io.koord4j.koordlet.states.NodeStates;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node agent's loops on one thread: collect usage, report the NodeMetric at its interval, hold
 * BE pods back (CPU quota, memory eviction, batch cgroup values) and publish the GPUs.
 */
public final class Koordlet implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Koordlet.class);
  static final Duration DEVICE_INTERVAL = Duration.ofMinutes(1);

  private final KoordletSettings settings;
  private final NodeStates states;
  private final UsageCollector collector;
  private final NodeMetricReporter reporter;
  private final CpuSuppressor suppressor;
  private final MemoryEvictor evictor;
  private final BatchCgroupReconciler batchCgroups;
  private final DeviceReporter devices;
  private final Clock clock;
  private final ScheduledExecutorService loop = DaemonThreads.scheduler("koordlet");
  private final Counter errors;
  private final Counter reports;
  private volatile Instant lastCollect = Instant.EPOCH;
  private Instant lastReport = Instant.EPOCH;
  private Instant lastDevices = Instant.EPOCH;

  public Koordlet(KubernetesClient client, KoordletSettings settings, MeterRegistry registry, Clock clock) {
    this.settings = settings;
    this.clock = clock;
    this.states = NodeStates.start(client, settings.nodeName());
    CgroupFiles cgroups =
        new CgroupFiles(CgroupLayout.detect(settings.cgroupRoot(), settings.cgroupDriver(), settings.kubepods()));
    CollectPolicy policy = CollectPolicy.of(states.nodeMetric().orElse(null));
    this.collector = new UsageCollector(
        new ProcFiles(settings.procRoot()), cgroups, clock, System::nanoTime,
        samples(policy.longestWindow()), samples(policy.aggregateDuration()));
    this.reporter = new NodeMetricReporter(client, states, collector, clock);
    this.suppressor = new CpuSuppressor(states, collector, cgroups);
    this.evictor = new MemoryEvictor(states, collector, new KubePodEvictor(client, settings.nodeName(), clock), clock);
    this.batchCgroups = new BatchCgroupReconciler(states, cgroups);
    GpuInventory inventory = inventory(settings.gpuInventory());
    this.devices = inventory == null ? null : new DeviceReporter(client, inventory);
    this.errors = registry.counter("koordlet_errors_total");
    this.reports = registry.counter("koordlet_nodemetric_reports_total");
    Gauge.builder("koordlet_node_cpu_usage_cores", collector, c -> c.nodeLatest().map(u -> u.cpuCores()).orElse(Double.NaN))
        .register(registry);
    Gauge.builder("koordlet_node_memory_usage_bytes", collector, c -> c.nodeLatest().map(u -> u.memoryBytes()).orElse(Double.NaN))
        .register(registry);
    Gauge.builder("koordlet_pods_measured", collector, c -> c.podsLatest().size()).register(registry);
    Gauge.builder("koordlet_be_cpu_quota_us", suppressor, CpuSuppressor::writtenQuotaUs).register(registry);
    LOG.info("node {}: cgroup {} ({}, {}) at {}", settings.nodeName(), cgroups.layout().version(),
        settings.cgroupDriver(), settings.kubepods(), settings.cgroupRoot());
  }

  private int samples(Duration window) {
    return (int) Math.max(1, window.toSeconds() / settings.collectInterval().toSeconds());
  }

  /** {@code none}, {@code nvidia-smi}, or {@code file:<dir>} with saved {@code query.xml} and {@code topo.txt}. */
  static GpuInventory inventory(String value) {
    if (value.equals("none")) {
      return null;
    }
    if (value.equals("nvidia-smi")) {
      return new NvidiaInventory(NvidiaSmiCommand.live());
    }
    if (value.startsWith("file:")) {
      return new NvidiaInventory(NvidiaSmiCommand.saved(Path.of(value.substring("file:".length()))));
    }
    throw new IllegalArgumentException("--gpu-inventory must be none, nvidia-smi or file:<dir>, not \"" + value + "\"");
  }

  public void start() {
    long collectMillis = settings.collectInterval().toMillis();
    loop.scheduleWithFixedDelay(() -> guarded("collect", this::collectAndReport), 0, collectMillis, TimeUnit.MILLISECONDS);
    loop.scheduleWithFixedDelay(() -> guarded("qos", this::qos), collectMillis, settings.qosInterval().toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Healthy while the informers watch and samples keep coming. */
  public boolean healthy() {
    Duration sinceCollect = Duration.between(lastCollect, clock.instant());
    return states.watching() && sinceCollect.compareTo(settings.collectInterval().multipliedBy(5).plusSeconds(5)) < 0;
  }

  private void collectAndReport() {
    List<PodRef> pods = states.pods().stream()
        .map(pod -> new PodRef(pod.getMetadata().getUid(), pod.getMetadata().getNamespace(),
            pod.getMetadata().getName(), KubeQos.of(pod)))
        .toList();
    collector.collect(pods);
    lastCollect = clock.instant();
    Instant now = clock.instant();
    if (!now.isBefore(lastReport.plus(reporter.policy().reportInterval())) && reporter.report()) {
      lastReport = now;
      reports.increment();
    }
    if (devices != null && !now.isBefore(lastDevices.plus(DEVICE_INTERVAL))) {
      states.node().ifPresent(devices::report);
      lastDevices = now;
    }
  }

  private void qos() {
    guarded("cpu suppression", suppressor::run);
    guarded("memory eviction", () -> evictor.run());
    guarded("batch cgroups", batchCgroups::run);
  }

  private void guarded(String task, Runnable body) {
    try {
      body.run();
    } catch (RuntimeException e) {
      errors.increment();
      LOG.warn("{} failed: {}", task, e.toString());
    }
  }

  /** Stops the loops, letting a round in progress finish, then the informers. */
  @Override
  public void close() {
    loop.shutdownNow();
    try {
      loop.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    states.close();
  }
}
