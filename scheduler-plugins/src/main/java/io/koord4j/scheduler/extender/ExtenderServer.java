package io.koord4j.scheduler.extender;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import io.koord4j.scheduler.extender.ExtenderTypes.ExtenderArgs;
import io.koord4j.scheduler.extender.ExtenderTypes.ExtenderBindingArgs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extender over HTTP, or HTTPS with client certificates (see {@link ExtenderSettings}): POST
 * {@code /filter}, {@code /prioritize} and {@code /bind}, so a KubeSchedulerConfiguration names it
 * with {@code urlPrefix: http://127.0.0.1:<port>} (or {@code https://<host>:<port>} and a {@code
 * tlsConfig}) and those verbs.
 */
public final class ExtenderServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ExtenderServer.class);
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .configure(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES, true)
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
          .build();
  /**
   * Threads reading requests and running the verbs. A bind waiting at Permit for its gang holds
   * none of them: its answer is sent when the gang is allowed or rejected.
   */
  private static final int THREADS = 16;

  private final HttpServer server;
  private final ExecutorService threads;

  public ExtenderServer(ExtenderSettings settings, Extender extender) throws IOException {
    this(settings, extender, THREADS);
  }

  ExtenderServer(ExtenderSettings settings, Extender extender, int threadCount) throws IOException {
    InetSocketAddress address = new InetSocketAddress(settings.address(), settings.port());
    if (settings.tls()) {
      HttpsServer https = HttpsServer.create(address, 0);
      https.setHttpsConfigurator(ExtenderTls.requiringClientCertificates(settings));
      server = https;
    } else {
      server = HttpServer.create(address, 0);
    }
    threads = Executors.newFixedThreadPool(threadCount);
    server.setExecutor(threads);
    server.createContext(
        "/filter", exchange -> serve(exchange, ExtenderArgs.class, now(extender::filter)));
    server.createContext(
        "/prioritize", exchange -> serve(exchange, ExtenderArgs.class, now(extender::prioritize)));
    server.createContext(
        "/bind",
        exchange -> serve(exchange, ExtenderBindingArgs.class, args -> extender.bind(args, threads)));
    server.start();
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static <A> Function<A, CompletableFuture<?>> now(Function<A, ?> verb) {
    return args -> CompletableFuture.completedFuture(verb.apply(args));
  }

  /** Reads the arguments and answers when the verb's result is ready, on whichever thread. */
  private static <A> void serve(
      HttpExchange exchange, Class<A> argsType, Function<A, CompletableFuture<?>> verb)
      throws IOException {
    if (!"POST".equals(exchange.getRequestMethod())) {
      respond(exchange, 405, "POST only".getBytes(StandardCharsets.UTF_8));
      return;
    }
    A args;
    try (InputStream in = exchange.getRequestBody()) {
      args = JSON.readValue(in, argsType);
    } catch (IOException e) {
      respond(exchange, 400, ("cannot read " + argsType.getSimpleName() + ": " + e.getMessage())
          .getBytes(StandardCharsets.UTF_8));
      return;
    }
    CompletableFuture<?> result;
    try {
      result = verb.apply(args);
    } catch (RuntimeException e) {
      result = CompletableFuture.failedFuture(e);
    }
    result.whenComplete((value, error) -> answer(exchange, value, error));
  }

  private static void answer(HttpExchange exchange, Object value, Throwable error) {
    try {
      if (error == null) {
        respond(exchange, 200, JSON.writeValueAsBytes(value));
      } else {
        LOG.error("extender {} failed", exchange.getRequestURI(), error);
        respond(exchange, 500, String.valueOf(error.getMessage()).getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      LOG.debug("cannot answer {}", exchange.getRequestURI(), e);
      exchange.close();
    }
  }

  private static void respond(HttpExchange exchange, int code, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", code == 200 ? "application/json" : "text/plain");
    exchange.sendResponseHeaders(code, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
