package io.koord4j.probes;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

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
  private final Map<String, Page> pages;

  private ProbeServer(Vertx vertx, HttpServer server, Map<String, Page> pages) {
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
    Map<String, Page> pages = new ConcurrentHashMap<>();
    server.requestHandler(request -> serve(vertx, request, registry, ready, pages));
    try {
      VertxFutures.await(server.listen(), "probe server");
    } catch (IOException | RuntimeException e) {
      vertx.close();
      throw e;
    }
    return new ProbeServer(vertx, server, pages);
  }

  /** What a read-only page answers, with {@code headers} beside its Content-Type. */
  public record Reply(int code, String contentType, String body, Map<String, String> headers) {
    public Reply(int code, String contentType, String body) {
      this(code, contentType, body, Map.of());
    }

    public static Reply notFound() {
      return new Reply(404, TEXT, "not found");
    }
  }

  /**
   * One GET or HEAD request of a page: its path, its query parameters and its headers, each with
   * its first value; header names are matched ignoring case.
   */
  public record Request(String path, Map<String, String> parameters, Map<String, String> headers) {
    public Request {
      parameters = Map.copyOf(parameters);
      Map<String, String> anyCase = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      anyCase.putAll(headers);
      headers = Collections.unmodifiableMap(anyCase);
    }

    public Optional<String> parameter(String name) {
      return Optional.ofNullable(parameters.get(name));
    }

    public Optional<String> header(String name) {
      return Optional.ofNullable(headers.get(name));
    }
  }

  /** A read-only page. */
  @FunctionalInterface
  public interface Page {
    /**
     * The reply to {@code request}. It is called on the event loop, which the probes share: work
     * that may take time (an API call) completes the reply later, off that thread.
     */
    CompletionStage<Reply> answer(Request request);
  }

  /**
   * Serves GET and HEAD requests of every path under {@code prefix} (e.g. {@code /ui} and
   * {@code /ui/quotas.json}) from {@code page}; other methods get 405, so nothing served this way
   * can change anything.
   */
  public void serve(String prefix, Page page) {
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
      Map<String, Page> pages) {
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

  private static void servePage(HttpServerRequest request, Map<String, Page> pages) {
    Page page = pages.entrySet().stream()
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
      answer(request, page);
    }
  }

  /** Sends the page's reply, on the request's event loop, once the page has made it. */
  private static void answer(HttpServerRequest request, Page page) {
    Request pageRequest;
    try {
      pageRequest = pageRequest(request);
    } catch (IllegalArgumentException e) {
      reply(request, 400, TEXT, "cannot read the query: " + e.getMessage());
      return;
    }
    Context context = Vertx.currentContext();
    page.answer(pageRequest).whenComplete((reply, failure) -> context.runOnContext(ignored -> {
      if (failure != null) {
        reply(request, 500, TEXT, "cannot answer: " + failure.getMessage());
      } else {
        request.response().putHeader("Cache-Control", "no-store");
        reply.headers().forEach(request.response()::putHeader);
        reply(request, reply.code(), reply.contentType(), reply.body());
      }
    }));
  }

  private static Request pageRequest(HttpServerRequest request) {
    return new Request(request.path(), firstValues(request.params()), firstValues(request.headers()));
  }

  private static Map<String, String> firstValues(MultiMap values) {
    Map<String, String> first = new HashMap<>();
    values.forEach(entry -> first.putIfAbsent(entry.getKey(), entry.getValue()));
    return first;
  }

  private static void reply(HttpServerRequest request, int code, String contentType, String body) {
    request.response().setStatusCode(code).putHeader("Content-Type", contentType).end(body);
  }
}
