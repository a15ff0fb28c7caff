package io.koord4j.manager.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in API server for tests of how a client lists: every list is empty, given as two pages
 * (the first with the continue token {@value #CONTINUE}), and every watch (over HTTP: its clients
 * watch only so) stays open without an event. It records the path and query of each list.
 */
public final class EmptyApiServer implements AutoCloseable {
  public static final String CONTINUE = "page-2";

  private final HttpServer server;
  private final List<String> lists = new CopyOnWriteArrayList<>();
  private final KubernetesClient client;

  public EmptyApiServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::answer);
    server.start();
    client = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
            .withOnlyHttpWatches(true)
            .build())
        .build();
  }

  /** A client of this server. */
  public KubernetesClient client() {
    return client;
  }

  /** Each list so far, as {@code path?query}. */
  public List<String> lists() {
    return lists;
  }

  @Override
  public void close() {
    client.close();
    server.stop(0);
  }

  private void answer(HttpExchange exchange) throws IOException {
    String query = String.valueOf(exchange.getRequestURI().getQuery());
    if (query.contains("watch=true")) {
      // Open until the server stops: an informer counts as started once its watch is.
      exchange.sendResponseHeaders(200, 0);
      exchange.getResponseBody().flush();
      return;
    }
    lists.add(exchange.getRequestURI().getPath() + "?" + query);
    String next = query.contains("continue=") ? "" : CONTINUE;
    byte[] body = ("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"7\",\"continue\":\""
        + next + "\"},\"items\":[]}").getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
