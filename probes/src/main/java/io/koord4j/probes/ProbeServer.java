package io.koord4j.probes;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The plain-HTTP endpoints every koord4j process serves: {@code /healthz} (the process answers),
 * {@code /readyz} (it has started) and Prometheus {@code /metrics}; a process may add read-only
 * pages of its own ({@link #serve}).
 */
public final class ProbeServer implements AutoCloseable {
  private static final String TEXT = "text/plain; charset=utf-8";
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;

  private ProbeServer(HttpServer server) {
    this.server = server;
  }

  /**
   * @param port 0 for any free port
   * @param ready whether {@code /readyz} answers 200 rather than 503
   */
  public static ProbeServer start(int port, PrometheusMeterRegistry registry, BooleanSupplier ready)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
    server.createContext("/healthz", exchange -> reply(exchange, 200, TEXT, "ok"));
    server.createContext(
        "/readyz",
        exchange -> {
          boolean isReady = ready.getAsBoolean();
          reply(exchange, isReady ? 200 : 503, TEXT, isReady ? "ok" : "starting");
        });
    server.createContext(
        "/metrics", exchange -> reply(exchange, 200, PROMETHEUS_TEXT, registry.scrape()));
    server.setExecutor(Executors.newSingleThreadExecutor());
    server.start();
    return new ProbeServer(server);
  }

  /** What a read-only page answers for one request path. */
  public record Reply(int code, String contentType, String body) {
    public static Reply notFound() {
      return new Reply(404, TEXT, "not found");
    }
  }

  /**
   * Serves GET and HEAD requests of every path under {@code prefix} (e.g. {@code /ui} and
   * {@code /ui/state.json}) from {@code page}, given the request's path; other methods get 405, so
   * nothing served this way can change anything.
   */
  public void serve(String prefix, Function<String, Reply> page) {
    server.createContext(
        prefix,
        exchange -> {
          String method = exchange.getRequestMethod();
          if (!method.equals("GET") && !method.equals("HEAD")) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            reply(exchange, 405, TEXT, "read-only: GET or HEAD");
            return;
          }
          Reply reply = page.apply(exchange.getRequestURI().getPath());
          exchange.getResponseHeaders().set("Cache-Control", "no-store");
          reply(exchange, reply.code(), reply.contentType(), reply.body());
        });
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private static void reply(HttpExchange exchange, int code, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(code, -1);
      exchange.close();
      return;
    }
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
