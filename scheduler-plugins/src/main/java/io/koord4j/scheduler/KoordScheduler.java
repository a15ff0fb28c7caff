package io.koord4j.scheduler;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.concurrent.DaemonThreads;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.extender.Extender;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.Plugin;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.kube.ApiBinder;
import io.koord4j.scheduler.kube.ApiPodAnnotator;
import io.koord4j.scheduler.kube.ClusterState;
import io.koord4j.scheduler.kube.ClusterWatch;
import io.koord4j.scheduler.kube.PodOutcomeRecorder;
import io.koord4j.scheduler.plugins.DefaultBinder;
import io.koord4j.scheduler.plugins.NodeAffinity;
import io.koord4j.scheduler.plugins.NodeResourcesFit;
import io.koord4j.scheduler.plugins.NodeUnschedulable;
import io.koord4j.scheduler.plugins.TaintToleration;
import io.koord4j.scheduler.plugins.coscheduling.Coscheduling;
import io.koord4j.scheduler.plugins.deviceshare.DeviceShare;
import io.koord4j.scheduler.plugins.coscheduling.GangResolver;
import io.koord4j.scheduler.plugins.elasticquota.ElasticQuotaPlugin;
import io.koord4j.scheduler.plugins.elasticquota.QuotaAccounts;
import io.koord4j.scheduler.plugins.loadaware.LoadAware;
import io.koord4j.scheduler.plugins.loadaware.LoadAwareArgs;
import io.koord4j.scheduler.plugins.loadaware.NodeLoads;
import io.koord4j.scheduler.plugins.loadaware.PodUsageEstimator;
import io.koord4j.scheduler.queue.SchedulingQueue;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import io.koord4j.api.gang.PodGroup;

/** koord-scheduler wired to a cluster: informers, the default profile, binding through the API. */
public final class KoordScheduler implements AutoCloseable {

  public static final String DEFAULT_NAME = "koord-scheduler";
  /**
   * Binding threads mostly wait for the API server; kube-scheduler binds each pod on a goroutine
   * of its own, so too few threads here cap throughput at threads / bind latency.
   */
  public static final int BINDING_THREADS = 64;
  /** For conditions and events, which are written apart from binding. */
  private static final int OUTCOME_THREADS = 8;

  /** Tunables; the defaults are kube-scheduler's. */
  public record Options(
      String schedulerName,
      int parallelism,
      Duration initialBackoff,
      Duration maxBackoff,
      Duration maxUnschedulable) {
    public static Options defaults() {
      return new Options(
          DEFAULT_NAME,
          Math.max(2, Runtime.getRuntime().availableProcessors()),
          Duration.ofSeconds(1),
          Duration.ofSeconds(10),
          Duration.ofMinutes(5));
    }

    public Options withSchedulerName(String name) {
      return new Options(name, parallelism, initialBackoff, maxBackoff, maxUnschedulable);
    }

    public Options withBackoff(Duration initial, Duration max) {
      return new Options(schedulerName, parallelism, initial, max, maxUnschedulable);
    }
  }

  private final ExecutorService filterPool;
  private final ExecutorService bindingPool;
  private final ExecutorService outcomePool;
  private final ScheduledExecutorService timer;
  private final SchedulingQueue queue;
  private final ClusterWatch watch;
  private final Scheduler scheduler;
  private final Thread loop;
  private final Extender extender;
  private boolean watching;

  public KoordScheduler(KubernetesClient client, MeterRegistry registry, Options options) {
    filterPool = Executors.newFixedThreadPool(options.parallelism(), DaemonThreads.numbered("koord-filter"));
    bindingPool = Executors.newFixedThreadPool(BINDING_THREADS, DaemonThreads.numbered("koord-binding"));
    outcomePool = Executors.newFixedThreadPool(OUTCOME_THREADS, DaemonThreads.numbered("koord-outcomes"));
    timer = DaemonThreads.scheduler("koord-permit-timer");
    WaitingPods waitingPods = new WaitingPods(timer);
    SchedulerCache cache = new SchedulerCache(GangResolver::gangIdOf);
    QuotaAccounts quotas = new QuotaAccounts();
    Map<String, PodGroup> podGroups = new ConcurrentHashMap<>();
    Coscheduling coscheduling =
        new Coscheduling(
            new GangResolver(podGroups::get),
            Coscheduling.GangCounts.of(cache::groupMembers, cache::groupPlaced),
            waitingPods);
    DeviceShare deviceShare =
        new DeviceShare(
            DeviceShare.GpuReservations.of(cache::reserveGpus, cache::releaseGpus),
            new ApiPodAnnotator(client));
    LoadAwareArgs loadArgs = LoadAwareArgs.defaults();
    PodUsageEstimator estimator = new PodUsageEstimator(loadArgs.estimatedScalingFactors());
    NodeLoads loads = new NodeLoads(estimator);
    LoadAware loadAware = new LoadAware(loadArgs, estimator, loads, Clock.systemUTC());
    DefaultBinder binder = new DefaultBinder(new ApiBinder(client));
    List<Plugin> profile =
        List.of(
            coscheduling,
            new ElasticQuotaPlugin(quotas),
            new NodeUnschedulable(),
            new NodeAffinity(),
            new TaintToleration(),
            deviceShare,
            new NodeResourcesFit(),
            loadAware,
            binder);
    // kube-scheduler's default score weights.
    Map<String, Integer> weights = Map.of(NodeAffinity.NAME, 2, TaintToleration.NAME, 3);
    Framework framework =
        new Framework(profile, weights, filterPool, options.parallelism(), waitingPods);
    queue =
        new SchedulingQueue(
            Clock.systemUTC(),
            options.initialBackoff(),
            options.maxBackoff(),
            options.maxUnschedulable(),
            framework.requeueEvents());
    watch =
        new ClusterWatch(
            client,
            options.schedulerName(),
            new ClusterState(cache, quotas, podGroups, loads),
            queue,
            waitingPods,
            Clock.systemUTC());
    scheduler =
        new Scheduler(
            queue,
            cache,
            framework,
            new PodOutcomeRecorder(client, options.schedulerName(), outcomePool),
            bindingPool,
            new SchedulerMetrics(registry, queue, cache));
    SchedulerMetrics.registerPermitWaits(registry, waitingPods);
    loop = DaemonThreads.numbered("koord-scheduler").newThread(scheduler);
    // kube-scheduler does the rest of the checks itself; the extender adds gangs and GPUs.
    extender =
        new Extender(
            new Framework(
                List.of(coscheduling, deviceShare, binder),
                Map.of(),
                filterPool,
                options.parallelism(),
                waitingPods),
            cache);
  }

  /** The extender endpoint's logic, served by {@link io.koord4j.scheduler.extender.ExtenderServer}. */
  public Extender extender() {
    return extender;
  }

  /**
   * Lists the cluster and keeps watching it, once. kube-scheduler does this before it leads, so
   * a standby takes over with its caches filled, and a new leader lists while it acquires the
   * Lease.
   */
  public synchronized void watchCluster() {
    if (!watching) {
      watch.start();
      watching = true;
    }
  }

  /** Lists the cluster unless {@link #watchCluster} already did, then starts scheduling. */
  public void start() {
    watchCluster();
    loop.start();
  }

  @Override
  public void close() {
    queue.close();
    watch.close();
    timer.shutdownNow();
    bindingPool.shutdownNow();
    outcomePool.shutdownNow();
    filterPool.shutdownNow();
  }
}
