package io.koord4j.yarn;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.net.InetAddress;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The copilot process: metrics at once, the sync only while this replica holds the Lease. A
 * replica that loses the Lease exits, so that it never writes next to the new leader.
 */
public final class CopilotMain {
  private static final Logger LOG = LoggerFactory.getLogger(CopilotMain.class);

  private CopilotMain() {}

  public static void main(String[] args) throws Exception {
    CopilotSettings settings = CopilotSettings.from(System.getenv());
    KubernetesClient client = new KubernetesClientBuilder().build();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    HTTPServer http =
        HTTPServer.builder().port(settings.httpPort()).registry(registry.getPrometheusRegistry()).buildAndStart();
    Copilot copilot =
        new Copilot(client, ClusterConfigs.load(settings.hadoopConfDir()), settings.period(), registry);
    AtomicBoolean stopping = new AtomicBoolean();
    LeaderElector elector = elector(client, settings, copilot, stopping);
    CompletableFuture<?> leadership = elector.start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  stopping.set(true);
                  copilot.close();
                  leadership.cancel(true);
                  elector.release();
                  http.close();
                }));
    LOG.info("metrics on port {}; waiting for leadership", http.getPort());
    try {
      leadership.join();
    } catch (CancellationException e) {
      // Shutting down.
    }
  }

  private static LeaderElector elector(
      KubernetesClient client, CopilotSettings settings, Copilot copilot, AtomicBoolean stopping)
      throws java.net.UnknownHostException {
    String identity = InetAddress.getLocalHost().getHostName() + "-" + ProcessHandle.current().pid();
    return client
        .leaderElector()
        .withConfig(
            new LeaderElectionConfigBuilder()
                .withName(settings.leaseName())
                .withLock(new LeaseLock(settings.namespace(), settings.leaseName(), identity))
                .withLeaseDuration(settings.leaseDuration())
                .withRenewDeadline(settings.renewDeadline())
                .withRetryPeriod(settings.retryPeriod())
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(
                    new LeaderCallbacks(
                        () -> lead(copilot),
                        () -> {
                          if (!stopping.get()) {
                            LOG.error("lost leadership; exiting so another replica takes over");
                            System.exit(1);
                          }
                        },
                        leader -> LOG.info("leader is {}", leader)))
                .build())
        .build();
  }

  private static void lead(Copilot copilot) {
    try {
      LOG.info("leading: starting the YARN sync");
      copilot.start();
    } catch (Exception e) {
      LOG.error("cannot start the YARN sync", e);
      System.exit(1);
    }
  }
}
