package io.koord4j.manager;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/** {@code /healthz} (the process answers), {@code /readyz} (started) and Prometheus {@code /metrics}. */
final class ProbeServer implements AutoCloseable {
  private final HttpServer server;

  private ProbeServer(HttpServer server) {
    this.server = server;
  }

  static ProbeServer start(int port, PrometheusMeterRegistry registry, BooleanSupplier ready)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
    server.createContext("/healthz", exchange -> reply(exchange, 200, "ok"));
    server.createContext(
        "/readyz",
        exchange ->
            reply(exchange, ready.getAsBoolean() ? 200 : 503, ready.getAsBoolean() ? "ok" : "starting"));
    server.createContext("/metrics", exchange -> reply(exchange, 200, registry.scrape()));
    server.setExecutor(Executors.newSingleThreadExecutor());
    server.start();
    return new ProbeServer(server);
  }

  int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private static void reply(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
