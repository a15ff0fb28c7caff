package io.koord4j.manager.dashboard;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.queue.QueueUnit;
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
 * the HTTP server's thread. It answers only requests whose Host it knows ({@link HostAllowList}),
 * and when asked to, serves the lists only to requests with a token the API server accepts for a
 * user who may list QueueUnits ({@link TokenAccess}); the static page itself holds no data.
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
  /** Empty: every request may read the lists. */
  private final Optional<TokenAccess> access;
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
  Dashboard(
      Supplier<DashboardState.Inputs> cluster, Clock clock, HostAllowList hosts, Optional<TokenAccess> access) {
    this.cluster = cluster;
    this.clock = clock;
    this.hosts = hosts;
    this.access = access;
  }

  /**
   * Adds the dashboard to the process's probe server.
   *
   * @param informers the leader's, read instead of the API server while they hold the cluster
   */
  public static void serveOn(
      ProbeServer server, DashboardSettings settings, KubernetesClient client, Optional<SharedInformers> informers) {
    Optional<TokenAccess> access = settings.authentication()
        ? Optional.of(new TokenAccess(new ApiServerReviews(client), Clock.systemUTC()))
        : Optional.empty();
    Dashboard dashboard =
        new Dashboard(new ClusterReader(client, informers), Clock.systemUTC(), settings.allowedHosts(), access);
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
    if (list == null) {
      return ProbeServer.Reply.notFound();
    }
    return refusal(request).orElseGet(() -> listPage(list, request));
  }

  /** Why the request may not read the lists, if it may not. */
  private Optional<ProbeServer.Reply> refusal(ProbeServer.Request request) {
    if (access.isEmpty()) {
      return Optional.empty();
    }
    try {
      return refusal(access.get().check(request.header("Authorization")));
    } catch (RuntimeException e) {
      LOG.warn("dashboard: cannot review a token: {}", e.getMessage());
      return Optional.of(error(503, "cannot review the token with the API server: " + e.getMessage()));
    }
  }

  private static Optional<ProbeServer.Reply> refusal(TokenAccess.Verdict verdict) {
    return switch (verdict) {
      case ALLOWED -> Optional.empty();
      case NO_TOKEN -> Optional.of(unauthorized("the dashboard needs a Kubernetes bearer token"));
      case BAD_TOKEN -> Optional.of(unauthorized("the API server does not accept this token"));
      case NOT_ALLOWED -> Optional.of(error(403, "this token's user may not list "
          + HasMetadata.getFullResourceName(QueueUnit.class) + " in every namespace"));
    };
  }

  private static ProbeServer.Reply unauthorized(String error) {
    return new ProbeServer.Reply(401, JSON, Serialization.asJson(Map.of("error", error)),
        Map.of("WWW-Authenticate", "Bearer realm=\"koord4j dashboard\""));
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
