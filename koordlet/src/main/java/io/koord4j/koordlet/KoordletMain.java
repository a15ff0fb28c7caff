package io.koord4j.koordlet;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.probes.ListenAddress;
import io.koord4j.probes.NativeTlsClientFactory;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The koordlet process, one per node and without leader election: the cluster from KUBECONFIG or
 * the pod's account, {@code /healthz} and Prometheus {@code /metrics} on the HTTP port.
 */
public final class KoordletMain {
  private static final Logger LOG = LoggerFactory.getLogger(KoordletMain.class);

  private KoordletMain() {}

  public static void main(String[] args) throws Exception {
    KoordletSettings settings;
    try {
      settings = KoordletSettings.from(System.getenv(), args);
    } catch (IllegalArgumentException e) {
      System.err.println("koordlet: " + e.getMessage());
      System.exit(2);
      return;
    }
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    KubernetesClient client = NativeTlsClientFactory.client();
    Koordlet koordlet = new Koordlet(client, settings, registry, Clock.systemUTC());
    HttpServer http = serve(ListenAddress.socket(settings.httpAddress(), settings.httpPort()), registry, koordlet);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      http.stop(0);
      koordlet.close();
      client.close();
      stopped.countDown();
    }));
    koordlet.start();
    LOG.info("koordlet for node {} serving /healthz and /metrics on port {}",
        settings.nodeName(), http.getAddress().getPort());
    stopped.await();
  }

  static HttpServer serve(InetSocketAddress address, PrometheusMeterRegistry registry, Koordlet koordlet)
      throws IOException {
    HttpServer server = HttpServer.create(address, 0);
    server.createContext("/healthz", exchange -> {
      boolean healthy = koordlet.healthy();
      send(exchange, healthy ? 200 : 503, healthy ? "ok" : "informers or collection stalled");
    });
    server.createContext("/metrics", exchange -> send(exchange, 200, registry.scrape()));
    server.start();
    return server;
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
