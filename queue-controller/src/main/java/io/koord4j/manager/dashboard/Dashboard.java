package io.koord4j.manager.dashboard;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.concurrent.DaemonThreads;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.probes.ProbeServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-only dashboard at {@code /ui} of the manager's HTTP port: one static page that polls
 * the paged lists {@code /ui/quotas.json}, {@code /ui/queues.json}, {@code /ui/gpus.json} and
 * {@code /ui/recent.json} ({@link ListPage}). Every replica serves it from its own reads of the
 * cluster ({@link ClusterReader}), at most one per {@link #FRESH} however many browsers poll. The
 * reads run on a thread of their own and a request gets a page of the latest state, on a small
 * pool of its own, so neither a slow API server nor a large page holds up the probes, which share
 * the HTTP server's thread. It answers only requests whose Host it knows ({@link HostAllowList}).
 */
public final class Dashboard {
  public static final String PATH = "/ui";
  /** How long one read of the cluster is served; the page polls at the same pace. */
  static final Duration FRESH = Duration.ofSeconds(2);
  /** Waiting jobs listed per queue: each costs a {@code why}, and people read the head first. */
  static final int SHOWN_PER_QUEUE = 50;
  /** Requests answered at once, and waiting beyond those: more get 503 rather than queue up. */
  private static final int REQUEST_THREADS = 2;
  private static final int WAITING_REQUESTS = 64;

  /** The lists the page reads, by path. */
  private static final Map<String, Function<DashboardState, List<?>>> LISTS = Map.of(
      PATH + "/quotas.json", DashboardState::quotas,
      PATH + "/queues.json", DashboardState::queues,
      PATH + "/gpus.json", DashboardState::gpus,
      PATH + "/recent.json", DashboardState::recent);

  private static final Logger LOG = LoggerFactory.getLogger(Dashboard.class);
  private static final String JSON = "application/json; charset=utf-8";
  private static final String TEXT = "text/plain; charset=utf-8";

  private final Supplier<DashboardState.Inputs> cluster;
  private final Clock clock;
  private final HostAllowList hosts;
  private final String page = resource("dashboard.html");
  private final ExecutorService reader =
      Executors.newSingleThreadExecutor(DaemonThreads.named("dashboard-reader"));
  private final ExecutorService requests = new ThreadPoolExecutor(
      REQUEST_THREADS, REQUEST_THREADS, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(WAITING_REQUESTS),
      DaemonThreads.numbered("dashboard-request"));
  private final AtomicBoolean reading = new AtomicBoolean();
  private volatile Read latest =
      Read.failed(503, "reading the cluster; the page retries by itself");
  private volatile Instant latestAt = Instant.MIN;

  /** @param cluster reads what the page shows; it may take time and fail */
  Dashboard(Supplier<DashboardState.Inputs> cluster, Clock clock, HostAllowList hosts) {
    this.cluster = cluster;
    this.clock = clock;
    this.hosts = hosts;
  }

  /**
   * Adds the dashboard to the process's probe server.
   *
   * @param informers the leader's, read instead of the API server while they hold the cluster
   */
  public static void serveOn(
      ProbeServer server, DashboardSettings settings, KubernetesClient client, Optional<SharedInformers> informers) {
    Dashboard dashboard =
        new Dashboard(new ClusterReader(client, informers), Clock.systemUTC(), settings.allowedHosts());
    server.serve(PATH, dashboard::answer);
  }

  /** The reply to {@code request}, made on the dashboard's own threads. */
  CompletionStage<ProbeServer.Reply> answer(ProbeServer.Request request) {
    try {
      return CompletableFuture.supplyAsync(() -> reply(request), requests);
    } catch (RejectedExecutionException e) {
      return CompletableFuture.completedFuture(error(503, "too many requests at once; the page retries by itself"));
    }
  }

  ProbeServer.Reply reply(ProbeServer.Request request) {
    Optional<String> host = request.header("Host");
    if (!hosts.allows(host)) {
      return misdirected(host);
    }
    if (request.path().equals(PATH) || request.path().equals(PATH + "/")) {
      return new ProbeServer.Reply(200, "text/html; charset=utf-8", page);
    }
    Function<DashboardState, List<?>> list = LISTS.get(request.path());
    return list == null ? ProbeServer.Reply.notFound() : listPage(list, request);
  }

  /** 421: the request names a host this dashboard does not answer to, or none. */
  private static ProbeServer.Reply misdirected(Optional<String> host) {
    return new ProbeServer.Reply(421, TEXT, host
        .map(name -> "the dashboard does not answer to the host \"" + name + "\": add its name to"
            + " KOORD4J_DASHBOARD_ALLOWED_HOSTS (Helm: manager.dashboard.allowedHosts)")
        .orElse("the dashboard answers only requests with a Host header"));
  }

  private ProbeServer.Reply listPage(Function<DashboardState, List<?>> list, ProbeServer.Request request) {
    Read read = latest();
    if (read.state() == null) {
      return read.failure();
    }
    try {
      return json(200, ListPage.of(read.state().readAt(), list.apply(read.state()), request));
    } catch (IllegalArgumentException e) {
      return error(400, e.getMessage());
    }
  }

  /** The latest read; a new one starts when it is older than {@link #FRESH} and none runs. */
  private Read latest() {
    Instant now = clock.instant();
    if (Duration.between(latestAt, now).compareTo(FRESH) >= 0 && reading.compareAndSet(false, true)) {
      reader.execute(() -> {
        try {
          Instant readAt = clock.instant();
          latest = read(readAt);
          latestAt = readAt;
        } finally {
          reading.set(false);
        }
      });
    }
    return latest;
  }

  private Read read(Instant now) {
    try {
      return new Read(DashboardState.of(cluster.get(), now, SHOWN_PER_QUEUE), null);
    } catch (KubernetesClientException e) {
      LOG.warn("dashboard: cannot read the cluster: {}", e.getMessage());
      return Read.failed(503, "cannot read the cluster: " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("dashboard: cannot build the page's state", e);
      return Read.failed(500, "cannot build the page's state: " + e);
    }
  }

  /** A read of the cluster: the state built from it, or the reply saying why there is none. */
  private record Read(DashboardState state, ProbeServer.Reply failure) {
    static Read failed(int code, String error) {
      return new Read(null, Dashboard.error(code, error));
    }
  }

  private static ProbeServer.Reply json(int code, Object body) {
    return new ProbeServer.Reply(code, JSON, Serialization.asJson(body));
  }

  private static ProbeServer.Reply error(int code, String error) {
    return json(code, Map.of("error", error));
  }

  private static String resource(String name) {
    try (InputStream in = Dashboard.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
