package io.koord4j.webhook.http;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.koord4j.probes.ContainerVertxOptions;
import io.koord4j.probes.NativeTls;
import io.koord4j.probes.SharedPort;
import io.koord4j.probes.VertxFutures;
import io.koord4j.webhook.admission.WouldBlock;
import io.koord4j.webhook.tls.ReloadableKeyManager;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.KeyCertOptions;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTPS admission server. Vert.x event loops handle connections and TLS, and answer reviews
 * whose handlers read only memory; a review whose lookup must ask the API server ({@link
 * WouldBlock}) is answered on the worker pool. The certificate comes from a {@link
 * ReloadableKeyManager}, so rotation needs no restart.
 *
 * <p>Endpoints: {@code /healthz} and one POST path per handler. Bodies above {@link
 * #MAX_BODY_BYTES} are refused with 400 and never held in memory. The receipt of every review and
 * its answer are timed per path ({@link AdmissionTimers}).
 *
 * <p>Every review is answered within {@link #ANSWER_BOUND} of its arrival, well before the API
 * server gives up: a handler that fails or is still busy then is answered for by its route's
 * failure policy ({@link AdmissionEndpoint#undecided}) and counted in {@link #INTERNAL_ERRORS}.
 *
 * <p>{@link #closeGracefully} lets a successor take over without a failed review: see there.
 */
public final class AdmissionServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionServer.class);
  /** Stored objects are at most 1.5 MiB; a review carries at most two (update: old and new). */
  public static final int MAX_BODY_BYTES = 3 * 1024 * 1024;
  public static final String HEALTH_PATH = "/healthz";
  /** The per-path answer timer, {@code koord4j_webhook_admission_seconds} in Prometheus. */
  public static final String ADMISSION_TIMER = "koord4j.webhook.admission";
  /** The per-path timer of receiving a review, {@code koord4j_webhook_review_receipt_seconds}. */
  public static final String RECEIPT_TIMER = "koord4j.webhook.review.receipt";
  private static final String TEXT = "text/plain; charset=utf-8";
  /** Half the API server's timeout of the registered webhooks. */
  public static final Duration ANSWER_BOUND = Duration.ofSeconds(5);
  /**
   * Reviews a handler could not decide, {@code koord4j_webhook_internal_errors_total{path,cause}}
   * in Prometheus; cause {@code exception} or {@code timeout}.
   */
  public static final String INTERNAL_ERRORS = "koord4j.webhook.internal.errors";
  /**
   * Connections accepted, {@code koord4j_webhook_connections_total} in Prometheus: each costs the
   * API server a TLS handshake, so a count that keeps growing under steady load means connections
   * are not reused.
   */
  public static final String CONNECTIONS = "koord4j.webhook.connections";

  private final Vertx vertx;
  private final HttpServer server;
  private final Map<String, AdmissionRoute> routes;
  private final AdmissionTimers timers;
  private final MeterRegistry registry;
  private final Duration answerBound;
  private final boolean sharedPort;
  /** Reviews received and not answered yet. */
  private final AtomicInteger underWay = new AtomicInteger();
  /** Set when the server is stopping: every answer then ends its connection (close, or GOAWAY on HTTP/2). */
  private volatile boolean draining;

  private AdmissionServer(
      Vertx vertx,
      HttpServer server,
      Map<String, AdmissionRoute> routes,
      MeterRegistry registry,
      Duration answerBound,
      boolean sharedPort) {
    this.vertx = vertx;
    this.server = server;
    this.routes = Map.copyOf(routes);
    this.timers = new AdmissionTimers(registry, routes.keySet());
    this.registry = registry;
    this.answerBound = answerBound;
    this.sharedPort = sharedPort;
  }

  /**
   * Listens on {@code host:port} (port 0 picks a free one) and serves the given paths, timing
   * them in {@code registry}.
   */
  public static AdmissionServer start(
      String host,
      int port,
      ReloadableKeyManager keys,
      Map<String, AdmissionRoute> routes,
      MeterRegistry registry) {
    return start(host, port, keys, routes, registry, false, ANSWER_BOUND);
  }

  /** As {@link #start(String, int, ReloadableKeyManager, Map, MeterRegistry)}, sharing the port if asked ({@link SharedPort}). */
  public static AdmissionServer start(
      String host,
      int port,
      ReloadableKeyManager keys,
      Map<String, AdmissionRoute> routes,
      MeterRegistry registry,
      boolean sharedPort) {
    return start(host, port, keys, routes, registry, sharedPort, ANSWER_BOUND);
  }

  static AdmissionServer start(
      String host,
      int port,
      ReloadableKeyManager keys,
      Map<String, AdmissionRoute> routes,
      MeterRegistry registry,
      boolean sharedPort,
      Duration answerBound) {
    Vertx vertx = SharedPort.vertx(ContainerVertxOptions.create(), sharedPort);
    HttpServerOptions options =
        SharedPort.listen(
            new HttpServerOptions()
                .setSsl(true)
                .setSslEngineOptions(NativeTls.engine())
                .setKeyCertOptions(KeyCertOptions.wrap(keys))
                // HTTP/2 when the client offers it, as the API server does: its reviews then share
                // one connection instead of a TLS handshake for each connection beyond its pool.
                .setUseAlpn(true)
                .setHost(host)
                .setPort(port)
                .setIdleTimeout(120),
            sharedPort);
    HttpServer server = vertx.createHttpServer(options);
    AdmissionServer admission = new AdmissionServer(vertx, server, routes, registry, answerBound, sharedPort);
    server.requestHandler(admission::serve);
    Counter connections =
        Counter.builder(CONNECTIONS).description("Connections accepted by the admission server").register(registry);
    server.connectionHandler(connection -> connections.increment());
    server.exceptionHandler(e -> LOG.debug("connection failed", e));
    try {
      await(server.listen());
    } catch (RuntimeException e) {
      await(vertx.close());
      throw e;
    }
    return admission;
  }

  public int port() {
    return server.actualPort();
  }

  /** Closes the server with its connections and stops the event loops and workers. */
  @Override
  public void close() {
    await(vertx.close());
  }

  /**
   * Stops without failing a review, for a successor that already serves on the same port (or
   * behind the same Service): from now on every answer ends its connection (a close, or a GOAWAY on
   * HTTP/2), so the API server opens its next one to a server that stays. On a shared port the
   * listener closes at once, as the successor takes every new connection; behind a Service
   * connections are still accepted for {@code linger}, while the endpoints change. Connections
   * already open are served for {@code linger}; then the reviews under way are answered (within the
   * answer bound) and the server closes.
   */
  public void closeGracefully(Duration linger) {
    draining = true;
    if (sharedPort) {
      SharedPort.stopAccepting(server);
    }
    pause(linger);
    long deadline = System.nanoTime() + answerBound.plusSeconds(1).toNanos();
    while (underWay.get() > 0 && System.nanoTime() < deadline) {
      pause(Duration.ofMillis(20));
    }
    close();
  }

  boolean draining() {
    return draining;
  }

  /** Reviews received and not answered yet. */
  int underWay() {
    return underWay.get();
  }

  private void serve(HttpServerRequest request) {
    if (HEALTH_PATH.equals(request.path())) {
      send(request, new HttpReply(200, TEXT, "ok\n"));
      return;
    }
    AdmissionRoute route = routes.get(request.path());
    if (route == null) {
      send(request, new HttpReply(404, TEXT, "no admission endpoint at " + request.path() + "\n"));
      return;
    }
    if (request.method() != HttpMethod.POST) {
      send(request, new HttpReply(405, TEXT, "admission reviews are POSTed\n"));
      return;
    }
    Timer.Sample arrival = Timer.start();
    AdmissionTimers.PathTimers timed = timers.forPath(request.path());
    underWay.incrementAndGet();
    request.response().endHandler(done -> underWay.decrementAndGet());
    request.response().closeHandler(closed -> {
      if (!request.response().ended()) {
        underWay.decrementAndGet();
      }
    });
    Buffer body = Buffer.buffer();
    boolean[] oversized = {declaredLength(request) > MAX_BODY_BYTES};
    request.handler(
        chunk -> {
          oversized[0] |= body.length() + chunk.length() > MAX_BODY_BYTES;
          if (!oversized[0]) {
            body.appendBuffer(chunk);
          }
        });
    request.endHandler(
        end -> {
          if (oversized[0]) {
            refuseOversized(request);
            return;
          }
          arrival.stop(timed.receipt());
          Timer.Sample received = Timer.start();
          answer(request.path(), route, body.getBytes())
              .onComplete(
                  reply -> {
                    send(request, reply.result());
                    received.stop(timed.answer());
                  });
        });
    request.exceptionHandler(e -> LOG.debug("request failed", e));
  }

  /**
   * The handler's reply, at once on the event loop when the handler reads only memory, else from a
   * worker thread ({@link #answerBlocking}).
   */
  private Future<HttpReply> answer(String path, AdmissionRoute route, byte[] body) {
    try {
      return Future.succeededFuture(reply(path, route, body, request -> {}));
    } catch (WouldBlock e) {
      return answerBlocking(path, route, body);
    }
  }

  private HttpReply reply(
      String path, AdmissionRoute route, byte[] body, Consumer<AdmissionRequest> received) {
    return AdmissionEndpoint.reply(route, body, received, () -> count(path, "exception"));
  }

  /**
   * The handler's reply from a worker thread, or, if it has none within the answer bound, the
   * route's undecided answer. Both complete on the event loop, so the first one wins.
   */
  private Future<HttpReply> answerBlocking(String path, AdmissionRoute route, byte[] body) {
    Promise<HttpReply> answer = Promise.promise();
    AtomicReference<AdmissionRequest> received = new AtomicReference<>();
    long deadline =
        vertx.setTimer(
            answerBound.toMillis(),
            id -> {
              if (!answer.future().isComplete()) {
                count(path, "timeout");
                answer.complete(late(route, received.get()));
              }
            });
    vertx
        .executeBlocking(
            () -> reply(path, route, body, received::set),
            false)
        .onComplete(
            result -> {
              vertx.cancelTimer(deadline);
              answer.tryComplete(
                  result.succeeded()
                      ? result.result()
                      : HttpReply.badRequest("the review could not be processed: " + result.cause()));
            });
    return answer.future();
  }

  /** A review not even read yet gets an error, to which the API server applies the policy. */
  private HttpReply late(AdmissionRoute route, AdmissionRequest request) {
    String why = "no decision within " + answerBound.toMillis() / 1000.0 + "s";
    return request == null
        ? new HttpReply(503, TEXT, why + "\n")
        : AdmissionEndpoint.undecided(route, request, why);
  }

  private void count(String path, String cause) {
    Counter.builder(INTERNAL_ERRORS)
        .description("Admission reviews a handler could not decide, by cause")
        .tag("path", path)
        .tag("cause", cause)
        .register(registry)
        .increment();
  }

  private static long declaredLength(HttpServerRequest request) {
    String length = request.getHeader("Content-Length");
    try {
      return length == null ? -1 : Long.parseLong(length.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Answers once the body has been read and dropped: a client still sending when the server
   * answers and closes would see a reset instead of the reason.
   */
  private void refuseOversized(HttpServerRequest request) {
    send(
        request,
        HttpReply.badRequest("the AdmissionReview is larger than " + MAX_BODY_BYTES + " bytes"));
  }

  private void send(HttpServerRequest request, HttpReply reply) {
    HttpServerResponse response = request.response();
    if (response.ended() || response.closed()) {
      return;
    }
    response.setStatusCode(reply.status()).putHeader("Content-Type", reply.contentType());
    if (!draining) {
      response.end(reply.body());
    } else if (request.version() == HttpVersion.HTTP_2) {
      // GOAWAY: the client sends its next reviews on a new connection; streams under way finish.
      response.end(reply.body()).onComplete(sent -> request.connection().shutdown(answerBound.toMillis(), TimeUnit.MILLISECONDS));
    } else {
      response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
      response.end(reply.body()).onComplete(sent -> request.connection().close());
    }
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static <T> T await(Future<T> future) {
    try {
      return VertxFutures.await(future, "admission server");
    } catch (IOException e) {
      throw new IllegalStateException(e.getMessage(), e.getCause());
    }
  }
}
