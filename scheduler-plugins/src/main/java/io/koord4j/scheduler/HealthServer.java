package io.koord4j.scheduler;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/** {@code /healthz} and Prometheus {@code /metrics} over plain HTTP. */
public final class HealthServer implements AutoCloseable {

  private final HttpServer server;

  public HealthServer(int port, PrometheusMeterRegistry registry) throws IOException {
    server = HttpServer.create(new InetSocketAddress(port), 0);
    server.createContext("/healthz", exchange -> reply(exchange, "text/plain", () -> "ok"));
    server.createContext(
        "/metrics",
        exchange -> reply(exchange, "text/plain; version=0.0.4; charset=utf-8", registry::scrape));
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void reply(HttpExchange exchange, String contentType, Supplier<String> body)
      throws IOException {
    byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
