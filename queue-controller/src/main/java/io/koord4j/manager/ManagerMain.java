package io.koord4j.manager;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.koord4j.api.ClientConfig;
import io.koord4j.manager.dashboard.Dashboard;
import io.koord4j.manager.dashboard.DashboardSettings;
import io.koord4j.manager.support.KubeObjects;
import io.koord4j.probes.NativeTlsClientFactory;
import io.koord4j.probes.ProbeServer;
import io.koord4j.webhook.WebhookServer;
import io.koord4j.webhook.WebhookSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager process: the cluster from KUBECONFIG (or the in-cluster account), probes and
 * metrics at once, the webhook if asked for (every replica serves it), and the controllers only
 * while this replica holds the leader Lease ({@link Leadership}).
 *
 * <p>A replica told to stop (SIGTERM) hands over without losing a review or admitting twice: it
 * turns unready, finishes its admission pass and stops its controllers, releases the Lease so the
 * successor leads at once, then stops its webhook gracefully ({@link
 * WebhookServer#closeGracefully}).
 */
public final class ManagerMain {
  private static final Logger LOG = LoggerFactory.getLogger(ManagerMain.class);
  /** How long a replica that must exit waits for its shutdown before it halts. */
  private static final Duration EXIT_LIMIT = Duration.ofSeconds(60);
  /** How long a stopping replica still serves reviews, while the API server moves to the successor. */
  private static final Duration WEBHOOK_LINGER = Duration.ofSeconds(5);

  private ManagerMain() {}

  public static void main(String[] args) throws Exception {
    // The Helm chart's test and uninstall hooks run the manager's image with these flags.
    if (List.of(args).contains("--check-install")) {
      runToCompletion(InstallCheck::run);
    }
    if (List.of(args).contains("--uninstall")) {
      runToCompletion(ReleaseCleanup::run);
    }
    ManagerSettings settings = ManagerSettings.from(System.getenv(), args);
    KubernetesClient client = NativeTlsClientFactory.client();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Readiness ready = new Readiness(settings.readyFile());
    ProbeServer probes = ProbeServer.start(settings.httpListen(), registry, ready);
    ensureNamespace(client, settings.namespace());
    // In Kueue mode Kueue's own webhook holds the jobs.
    WebhookServer webhook =
        settings.webhook() && !settings.kueueAdmissionCheck()
            ? startWebhook(client, registry)
            : null;
    LeaseFence lease =
        new LeaseFence(
            new LeaseLock(settings.namespace(), settings.leaseName(), identity()),
            settings.renewDeadline(),
            System::nanoTime);
    // The elector and the webhook write with the plain client; the controllers only as the leader.
    KubernetesClient leaderClient = FencedWrites.client(ClientConfig.fromEnvironment(), lease);
    LeaderControllers manager =
        settings.kueueAdmissionCheck()
            ? new KueueCheckControllers(leaderClient)
            : new Manager(leaderClient, registry, lease);
    if (settings.dashboard()) {
      Dashboard.serveOn(probes, DashboardSettings.from(System.getenv()), client, manager.informers());
    }
    Leadership leadership =
        new Leadership(
            config -> client.leaderElector().withConfig(config).build(),
            settings,
            lease,
            manager,
            ManagerMain::exit);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  ready.set(false);
                  leadership.stop();
                  if (webhook != null) {
                    webhook.closeGracefully(WEBHOOK_LINGER);
                  }
                  probes.close();
                }));
    ready.set(true);
    LOG.info("probes and metrics on port {}; waiting for leadership", probes.port());
    try {
      leadership.start().join();
    } catch (CancellationException e) {
      // Shutting down.
    }
  }

  /** Exits, or halts if the shutdown hangs: a replica that lost the Lease must not linger. */
  private static void exit(int status) {
    Thread halt =
        new Thread(
            () -> {
              try {
                Thread.sleep(EXIT_LIMIT.toMillis());
              } catch (InterruptedException e) {
                return;
              }
              LOG.error("the shutdown did not finish within {}; halting", EXIT_LIMIT);
              Runtime.getRuntime().halt(status);
            },
            "halt");
    halt.setDaemon(true);
    halt.start();
    System.exit(status);
  }

  /** A one-off task against the cluster; its exit status says whether it succeeded. */
  private interface ClusterTask {
    void run(KubernetesClient client, Map<String, String> env) throws InterruptedException;
  }

  private static void runToCompletion(ClusterTask task) {
    int status = 0;
    try (KubernetesClient client = NativeTlsClientFactory.client()) {
      task.run(client, System.getenv());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      status = 1;
    } catch (RuntimeException e) {
      LOG.error("{}", e.getMessage(), e);
      status = 1;
    }
    // The client's threads would otherwise keep the JVM alive.
    System.exit(status);
  }

  /**
   * Unique per process: in the node's network two replicas share the host name, and in their
   * containers both are process 1. {@code KOORD4J_LEASE_IDENTITY} names it instead (a pod name).
   */
  private static String identity() throws UnknownHostException {
    String given = System.getenv("KOORD4J_LEASE_IDENTITY");
    return given != null && !given.isBlank()
        ? given
        : InetAddress.getLocalHost().getHostName() + "_" + UUID.randomUUID();
  }

  /**
   * The webhook with its own caches: the manager's informers run only while it leads, and every
   * replica serves the webhook.
   */
  private static WebhookServer startWebhook(KubernetesClient client, MeterRegistry registry) {
    WebhookServer server =
        WebhookServer.withAllHandlers(client, WebhookSettings.fromEnvironment(System.getenv()), registry);
    server.start();
    return server;
  }

  private static void ensureNamespace(KubernetesClient client, String namespace) {
    if (client.namespaces().withName(namespace).get() == null) {
      KubeObjects.createIfAbsent(
          client, new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build());
    }
  }
}
