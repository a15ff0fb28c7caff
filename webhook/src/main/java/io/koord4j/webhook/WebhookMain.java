package io.koord4j.webhook;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.probes.ListenAddress;
import io.koord4j.probes.NativeTlsClientFactory;
import io.koord4j.probes.ProbeServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the webhook alone, with the cluster from KUBECONFIG (or the in-cluster account), configured
 * by the environment as {@link WebhookSettings#fromEnvironment} says. {@code /healthz},
 * {@code /readyz} (ready once it serves) and {@code /metrics} answer on {@code KOORD4J_HTTP_PORT}
 * (default 8080) of {@code KOORD4J_HTTP_ADDRESS} (default every address), as they do for the
 * manager.
 */
public final class WebhookMain {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookMain.class);

  private WebhookMain() {}

  public static void main(String[] args) throws InterruptedException, IOException {
    Map<String, String> env = System.getenv();
    WebhookSettings settings = WebhookSettings.fromEnvironment(env);
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AtomicBoolean serving = new AtomicBoolean();
    ProbeServer.Listen listen =
        new ProbeServer.Listen(
            ListenAddress.of(env.get("KOORD4J_HTTP_ADDRESS")),
            WebhookSettings.port(env, "KOORD4J_HTTP_PORT", 8080),
            settings.sharedPort());
    ProbeServer probes = ProbeServer.start(listen, registry, serving::get);
    KubernetesClient client = NativeTlsClientFactory.client();
    WebhookServer server = WebhookServer.withAllHandlers(client, settings, registry);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  serving.set(false);
                  server.close();
                  client.close();
                  probes.close();
                  stopped.countDown();
                }));
    try {
      server.start();
    } catch (RuntimeException e) {
      // The probe server's threads would keep a webhook that cannot serve alive.
      LOG.error("the webhook cannot start: {}", e.getMessage(), e);
      System.exit(1);
    }
    serving.set(true);
    stopped.await();
  }
}
