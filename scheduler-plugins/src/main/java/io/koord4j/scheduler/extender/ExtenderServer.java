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
  /** Bind calls of a gang wait at Permit together, each holding a thread. */
  private static final int THREADS = 64;

  private final HttpServer server;
  private final ExecutorService threads;

  public ExtenderServer(ExtenderSettings settings, Extender extender) throws IOException {
    InetSocketAddress address = new InetSocketAddress(settings.address(), settings.port());
    if (settings.tls()) {
      HttpsServer https = HttpsServer.create(address, 0);
      https.setHttpsConfigurator(ExtenderTls.requiringClientCertificates(settings));
      server = https;
    } else {
      server = HttpServer.create(address, 0);
    }
    threads = Executors.newFixedThreadPool(THREADS);
    server.setExecutor(threads);
    server.createContext("/filter", exchange -> serve(exchange, ExtenderArgs.class, extender::filter));
    server.createContext(
        "/prioritize", exchange -> serve(exchange, ExtenderArgs.class, extender::prioritize));
    server.createContext("/bind", exchange -> serve(exchange, ExtenderBindingArgs.class, extender::bind));
    server.start();
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static <A> void serve(HttpExchange exchange, Class<A> argsType, Function<A, ?> verb)
      throws IOException {
    int code;
    byte[] body;
    if (!"POST".equals(exchange.getRequestMethod())) {
      code = 405;
      body = "POST only".getBytes(StandardCharsets.UTF_8);
    } else {
      try (InputStream in = exchange.getRequestBody()) {
        A args = JSON.readValue(in, argsType);
        body = JSON.writeValueAsBytes(verb.apply(args));
        code = 200;
      } catch (IOException e) {
        code = 400;
        body = ("cannot read " + argsType.getSimpleName() + ": " + e.getMessage()).getBytes(StandardCharsets.UTF_8);
      } catch (RuntimeException e) {
        LOG.error("extender {} failed", exchange.getRequestURI(), e);
        code = 500;
        body = String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8);
      }
    }
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
