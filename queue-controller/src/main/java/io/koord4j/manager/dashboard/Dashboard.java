package io.koord4j.manager.dashboard;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.device.Device;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-only dashboard at {@code /ui} of the manager's HTTP port: one static page that polls
 * {@code /ui/state.json}. Every replica serves it from its own reads of the API server, at most
 * one round of reads per {@link #FRESH} however many browsers poll.
 */
public final class Dashboard {
  public static final String PATH = "/ui";
  /** How long one read of the cluster is served; the page polls at the same pace. */
  static final Duration FRESH = Duration.ofSeconds(2);
  /** Waiting jobs listed per queue: each costs a {@code why}, and people read the head first. */
  static final int SHOWN_PER_QUEUE = 50;

  private static final Logger LOG = LoggerFactory.getLogger(Dashboard.class);
  private static final String JSON = "application/json; charset=utf-8";

  private final KubernetesClient client;
  private final Clock clock;
  private final String page = resource("dashboard.html");
  private ProbeServer.Reply state;
  private Instant stateAt = Instant.MIN;

  Dashboard(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /** Adds the dashboard to the process's probe server. */
  public static void serveOn(ProbeServer server, KubernetesClient client) {
    server.serve(PATH, new Dashboard(client, Clock.systemUTC())::reply);
  }

  ProbeServer.Reply reply(String path) {
    return switch (path) {
      case PATH, PATH + "/" -> new ProbeServer.Reply(200, "text/html; charset=utf-8", page);
      case PATH + "/state.json" -> state();
      default -> ProbeServer.Reply.notFound();
    };
  }

  private synchronized ProbeServer.Reply state() {
    Instant now = clock.instant();
    if (state == null || Duration.between(stateAt, now).compareTo(FRESH) >= 0) {
      state = read(now);
      stateAt = now;
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
