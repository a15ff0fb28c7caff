package io.koord4j.manager.dashboard;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.device.Device;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.concurrent.DaemonThreads;
import io.koord4j.probes.ProbeServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-only dashboard at {@code /ui} of the manager's HTTP port: one static page that polls
 * {@code /ui/state.json}. Every replica serves it from its own reads of the API server, at most
 * one round of reads per {@link #FRESH} however many browsers poll. The reads run on a thread of
 * their own and a request gets the latest state at once, so a slow API server never holds up the
 * probes, which share the HTTP server's thread. It answers only requests whose Host it knows
 * ({@link HostAllowList}).
 */
public final class Dashboard {
  public static final String PATH = "/ui";
  /** How long one read of the cluster is served; the page polls at the same pace. */
  static final Duration FRESH = Duration.ofSeconds(2);
  /** Waiting jobs listed per queue: each costs a {@code why}, and people read the head first. */
  static final int SHOWN_PER_QUEUE = 50;

  private static final Logger LOG = LoggerFactory.getLogger(Dashboard.class);
  private static final String JSON = "application/json; charset=utf-8";
  private static final String TEXT = "text/plain; charset=utf-8";

  private final KubernetesClient client;
  private final Clock clock;
  private final HostAllowList hosts;
  private final String page = resource("dashboard.html");
  private final ExecutorService reader =
      Executors.newSingleThreadExecutor(DaemonThreads.named("dashboard-reader"));
  private final AtomicBoolean reading = new AtomicBoolean();
  private volatile ProbeServer.Reply state = new ProbeServer.Reply(503, JSON,
      Serialization.asJson(Map.of("error", "reading the cluster; the page retries by itself")));
  private volatile Instant stateAt = Instant.MIN;

  Dashboard(KubernetesClient client, Clock clock, HostAllowList hosts) {
    this.client = client;
    this.clock = clock;
    this.hosts = hosts;
  }

  /** Adds the dashboard to the process's probe server. */
  public static void serveOn(ProbeServer server, KubernetesClient client, DashboardSettings settings) {
    Dashboard dashboard = new Dashboard(client, Clock.systemUTC(), settings.allowedHosts());
    server.serve(PATH, request -> CompletableFuture.completedFuture(dashboard.reply(request)));
  }

  ProbeServer.Reply reply(ProbeServer.Request request) {
    Optional<String> host = request.header("Host");
    if (!hosts.allows(host)) {
      return misdirected(host);
    }
    return switch (request.path()) {
      case PATH, PATH + "/" -> new ProbeServer.Reply(200, "text/html; charset=utf-8", page);
      case PATH + "/state.json" -> state();
      default -> ProbeServer.Reply.notFound();
    };
  }

  /** 421: the request names a host this dashboard does not answer to, or none. */
  private static ProbeServer.Reply misdirected(Optional<String> host) {
    return new ProbeServer.Reply(421, TEXT, host
        .map(name -> "the dashboard does not answer to the host \"" + name + "\": add its name to"
            + " KOORD4J_DASHBOARD_ALLOWED_HOSTS (Helm: manager.dashboard.allowedHosts)")
        .orElse("the dashboard answers only requests with a Host header"));
  }

  /** The latest state; a new read starts when it is older than {@link #FRESH} and none runs. */
  ProbeServer.Reply state() {
    Instant now = clock.instant();
    if (Duration.between(stateAt, now).compareTo(FRESH) >= 0 && reading.compareAndSet(false, true)) {
      reader.execute(() -> {
        try {
          Instant readAt = clock.instant();
          state = read(readAt);
          stateAt = readAt;
        } finally {
          reading.set(false);
        }
      });
    }
    return state;
  }

  private ProbeServer.Reply read(Instant now) {
    try {
      DashboardState.Inputs inputs = new DashboardState.Inputs(
          client.resources(Queue.class).inAnyNamespace().list().getItems(),
          client.resources(QueueUnit.class).inAnyNamespace().list().getItems(),
          client.resources(ElasticQuota.class).inAnyNamespace().list().getItems(),
          client.nodes().list().getItems(),
          devices(),
          client.pods().inAnyNamespace()
              .withoutField("spec.nodeName", "")
              .withoutField("status.phase", "Succeeded")
              .withoutField("status.phase", "Failed")
              .list().getItems());
      return new ProbeServer.Reply(200, JSON,
          Serialization.asJson(DashboardState.of(inputs, now, SHOWN_PER_QUEUE)));
    } catch (KubernetesClientException e) {
      LOG.warn("dashboard: cannot read the cluster: {}", e.getMessage());
      return new ProbeServer.Reply(503, JSON, Serialization.asJson(
          Map.of("error", "cannot read the cluster: " + e.getMessage())));
    } catch (RuntimeException e) {
      LOG.error("dashboard: cannot build the page's state", e);
      return new ProbeServer.Reply(500, JSON, Serialization.asJson(
          Map.of("error", "cannot build the page's state: " + e)));
    }
  }

  /** Device objects; none when their kind is not installed (no koordlet). */
  private List<Device> devices() {
    try {
      return client.resources(Device.class).list().getItems();
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return List.of();
      }
      throw e;
    }
  }

  private static String resource(String name) {
    try (InputStream in = Dashboard.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
