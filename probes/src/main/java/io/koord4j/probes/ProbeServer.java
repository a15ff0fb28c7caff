package io.koord4j.probes;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * The plain-HTTP endpoints every koord4j process serves: {@code /healthz} (the process answers),
 * {@code /readyz} (it has started) and Prometheus {@code /metrics}.
 */
public final class ProbeServer implements AutoCloseable {
  private static final String TEXT = "text/plain; charset=utf-8";
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  private static final long TIMEOUT_SECONDS = 30;

  private final Vertx vertx;
  private final HttpServer server;

  private ProbeServer(Vertx vertx, HttpServer server) {
    this.vertx = vertx;
    this.server = server;
  }

  /**
   * @param port 0 for any free port
   * @param ready whether {@code /readyz} answers 200 rather than 503
   */
  public static ProbeServer start(int port, PrometheusMeterRegistry registry, BooleanSupplier ready)
      throws IOException {
    return start(port, registry, ready, false);
  }

  /**
   * @param sharedPort listen with {@link SharedPort} (a successor on the same host may bind the port
   *     while this server runs)
   */
  public static ProbeServer start(
      int port, PrometheusMeterRegistry registry, BooleanSupplier ready, boolean sharedPort)
      throws IOException {
    Vertx vertx = SharedPort.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1), sharedPort);
    HttpServer server =
        vertx.createHttpServer(SharedPort.listen(new HttpServerOptions().setPort(port), sharedPort));
    server.requestHandler(request -> serve(vertx, request, registry, ready));
    try {
      await(server.listen());
    } catch (IOException | RuntimeException e) {
      vertx.close();
      throw e;
    }
    return new ProbeServer(vertx, server);
  }

  public int port() {
    return server.actualPort();
  }

  @Override
  public void close() {
    try {
      await(vertx.close());
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private static void serve(
      Vertx vertx, HttpServerRequest request, PrometheusMeterRegistry registry, BooleanSupplier ready) {
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
      default -> reply(request, 404, TEXT, "not found");
    }
  }

  private static void reply(HttpServerRequest request, int code, String contentType, String body) {
    request.response().setStatusCode(code).putHeader("Content-Type", contentType).end(body);
  }

  private static <T> T await(Future<T> future) throws IOException {
    try {
      return future.toCompletionStage().toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IOException("probe server: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("probe server did not answer in time", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
