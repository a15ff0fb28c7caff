package io.koord4j.scheduler;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.koord4j.probes.ProbeServer;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.koord4j.scheduler.extender.ExtenderServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * koord-scheduler. Connects with KUBECONFIG or the in-cluster service account, serves {@code
 * /healthz} and {@code /metrics}, and schedules only while it holds the Lease, so that replicas
 * can stand by. It lists and watches the cluster from the start, as kube-scheduler does, so that a
 * standby takes over with filled caches. Losing the Lease ends the process, as kube-scheduler
 * does: a restart rebuilds all state from the cluster.
 *
 * <p>Environment: {@code SCHEDULER_NAME} (default koord-scheduler), {@code HEALTH_PORT} (default
 * 10251), {@code LEASE_NAMESPACE} (default kube-system).
 *
 * <p>{@code --extender-port <port>} also serves the kube-scheduler extender (DeviceShare and
 * Coscheduling) on that port while leading: {@code urlPrefix: http://<host>:<port>}, {@code
 * filterVerb: filter}, {@code prioritizeVerb: prioritize}, {@code bindVerb: bind}.
 */
public final class SchedulerMain {
  private SchedulerMain() {}

  private static final Logger LOG = LoggerFactory.getLogger(SchedulerMain.class);

  public static void main(String[] args) throws Exception {
    Integer extenderPort = extenderPort(args);
    String name = env("SCHEDULER_NAME", KoordScheduler.DEFAULT_NAME);
    KoordScheduler.Options options = KoordScheduler.Options.defaults().withSchedulerName(name);
    String identity = InetAddress.getLocalHost().getHostName() + "_" + UUID.randomUUID();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    KubernetesClient client = new KubernetesClientBuilder().build();
    ProbeServer health =
        ProbeServer.start(Integer.parseInt(env("HEALTH_PORT", "10251")), registry, () -> true);
    KoordScheduler scheduler = new KoordScheduler(client, registry, options);
    LOG.info("{} as {}; health and metrics on port {}", name, identity, health.port());
    CompletableFuture<?> leading =
        client
            .leaderElector()
            .withConfig(
                new LeaderElectionConfigBuilder()
                    .withName(name)
                    .withLock(new LeaseLock(env("LEASE_NAMESPACE", "kube-system"), name, identity))
                    .withLeaseDuration(Duration.ofSeconds(15))
                    .withRenewDeadline(Duration.ofSeconds(10))
                    .withRetryPeriod(Duration.ofSeconds(2))
                    .withLeaderCallbacks(
                        new LeaderCallbacks(
                            () -> {
                              LOG.info("leading after {} ms; starting to schedule", uptimeMillis());
                              scheduler.start();
                              if (extenderPort != null) {
                                serveExtender(extenderPort, scheduler);
                              }
                            },
                            () -> {
                              LOG.error("lost the lease; exiting so that a restart rebuilds state");
                              System.exit(1);
                            },
                            leader -> LOG.info("leader is {}", leader)))
                    .build())
            .build()
            .start();
    // Listing while the Lease is acquired: a leader starts with its caches filled.
    scheduler.watchCluster();
    LOG.info("cluster listed {} ms after the JVM started", uptimeMillis());
    leading.join();
  }

  private static long uptimeMillis() {
    return ManagementFactory.getRuntimeMXBean().getUptime();
  }

  /** The port of {@code --extender-port}, null without the flag. */
  static Integer extenderPort(String[] args) {
    Integer port = null;
    for (int i = 0; i < args.length; i++) {
      if (!"--extender-port".equals(args[i])) {
        throw new IllegalArgumentException(
            "unknown argument " + args[i] + "; usage: SchedulerMain [--extender-port <port>]");
      }
      if (i + 1 == args.length) {
        throw new IllegalArgumentException("--extender-port needs a port number");
      }
      try {
        port = Integer.parseInt(args[++i]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--extender-port: \"" + args[i] + "\" is not a port number");
      }
    }
    return port;
  }

  private static void serveExtender(int port, KoordScheduler scheduler) {
    try {
      ExtenderServer server = new ExtenderServer(port, scheduler.extender());
      LOG.info("kube-scheduler extender on port {}", server.port());
    } catch (IOException e) {
      LOG.error("cannot serve the extender on port {}; exiting", port, e);
      System.exit(1);
    }
  }

  private static String env(String key, String fallback) {
    String value = System.getenv(key);
    return value == null || value.isBlank() ? fallback : value;
  }
}
