package io.koord4j.yarn;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.probes.LeaderElection;
import io.koord4j.probes.NativeTlsClientFactory;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The copilot process: metrics at once, the sync only while this replica holds the Lease. */
public final class CopilotMain {
  private static final Logger LOG = LoggerFactory.getLogger(CopilotMain.class);

  private CopilotMain() {}

  public static void main(String[] args) throws Exception {
    CopilotSettings settings = CopilotSettings.from(System.getenv());
    KubernetesClient client = NativeTlsClientFactory.client();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    HTTPServer.Builder listen = HTTPServer.builder().port(settings.httpPort());
    settings.httpAddress().ifPresent(listen::hostname);
    HTTPServer http = listen.registry(registry.getPrometheusRegistry()).buildAndStart();
    Copilot copilot =
        new Copilot(
            client,
            ClusterConfigs.load(settings.hadoopConfDir()),
            settings.period(),
            settings.nodeManagers(),
            registry);
    LeaderElection election =
        new LeaderElection(client, settings.namespace(), settings.leaseName(), settings.leaseDuration(), copilot::start);
    Thread main = Thread.currentThread();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  election.stop();
                  copilot.close();
                  main.interrupt();
                  http.close();
                }));
    LOG.info("metrics on port {}; waiting for leadership", http.getPort());
    election.run();
  }
}
