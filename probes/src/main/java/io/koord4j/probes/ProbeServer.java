package io.koord4j.probes;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
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

  private final Vertx vertx;
  private final HttpServer server;
  private final Map<String, Function<String, Reply>> pages;

  private ProbeServer(Vertx vertx, HttpServer server, Map<String, Function<String, Reply>> pages) {
    this.vertx = vertx;
    this.server = server;
    this.pages = pages;
  }

  /**
   * Where the server listens.
   *
   * @param address one address of the host (see {@link ListenAddress}); empty for every address
   * @param port 0 for any free port
   * @param sharedPort listen with {@link SharedPort} (a successor on the same host may bind the
   *     port while this server runs)
   */
  public record Listen(Optional<String> address, int port, boolean sharedPort) {
    /** Every address of the host, on {@code port}, not shared. */
    public static Listen onPort(int port) {
      return new Listen(Optional.empty(), port, false);
    }
  }

  /** @param ready whether {@code /readyz} answers 200 rather than 503 */
  public static ProbeServer start(Listen listen, PrometheusMeterRegistry registry, BooleanSupplier ready)
      throws IOException {
    Vertx vertx =
        SharedPort.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1), listen.sharedPort());
    HttpServerOptions options = new HttpServerOptions().setPort(listen.port());
    listen.address().ifPresent(options::setHost);
    HttpServer server = vertx.createHttpServer(SharedPort.listen(options, listen.sharedPort()));
    Map<String, Function<String, Reply>> pages = new ConcurrentHashMap<>();
    server.requestHandler(request -> serve(vertx, request, registry, ready, pages));
    try {
      VertxFutures.await(server.listen(), "probe server");
    } catch (IOException | RuntimeException e) {
      vertx.close();
      throw e;
    }
    return new ProbeServer(vertx, server, pages);
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
   * nothing served this way can change anything. {@code page} runs on the event loop: it must
   * answer at once.
   */
  public void serve(String prefix, Function<String, Reply> page) {
    pages.put(prefix, page);
  }

  public int port() {
    return server.actualPort();
  }

  @Override
  public void close() {
    try {
      VertxFutures.await(vertx.close(), "probe server");
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private static void serve(
      Vertx vertx, HttpServerRequest request, PrometheusMeterRegistry registry, BooleanSupplier ready,
      Map<String, Function<String, Reply>> pages) {
    switch (request.path()) {
      case "/healthz" -> reply(request, 200, TEXT, "ok");
      case "/readyz" -> {
        boolean isReady = ready.getAsBoolean();
        reply(request, isReady ? 200 : 503, TEXT, isReady ? "ok" : "starting");
      }
      // A scrape of many meters is slow: off the event loop.
      case "/metrics" ->
          vertx.executeBlocking(() -> registry.scrape(), false)
              .onSuccess(text -> reply(request, 200, PROMETHEUS_TEXT, text))
              .onFailure(e -> reply(request, 500, TEXT, "cannot scrape: " + e.getMessage()));
      default -> servePage(request, pages);
    }
  }

  private static void servePage(HttpServerRequest request, Map<String, Function<String, Reply>> pages) {
    Function<String, Reply> page = pages.entrySet().stream()
        .filter(entry -> request.path().startsWith(entry.getKey()))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(null);
    if (page == null) {
      reply(request, 404, TEXT, "not found");
    } else if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) {
      request.response().putHeader("Allow", "GET, HEAD");
      reply(request, 405, TEXT, "read-only: GET or HEAD");
    } else {
      Reply reply = page.apply(request.path());
      request.response().putHeader("Cache-Control", "no-store");
      reply(request, reply.code(), reply.contentType(), reply.body());
    }
  }

  private static void reply(HttpServerRequest request, int code, String contentType, String body) {
    request.response().setStatusCode(code).putHeader("Content-Type", contentType).end(body);
  }
}
