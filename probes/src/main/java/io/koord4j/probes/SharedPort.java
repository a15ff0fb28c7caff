package io.koord4j.probes;

import io.netty.channel.Channel;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.impl.TCPServerBase;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Listening on a port another process of the same user may hold at the same time (SO_REUSEPORT).
 * A replica in its node's network can then start while its predecessor still serves on the same
 * host port, and the kernel spreads new connections over both until the predecessor closes.
 * Only Linux's native transport (epoll) offers the option; a process asked to share a port without
 * it refuses to start rather than clash with its predecessor.
 */
public final class SharedPort {
  /** {@code true}: the manager's listeners share their ports with a successor on the same host. */
  public static final String VARIABLE = "KOORD4J_SHARED_PORTS";

  private SharedPort() {}

  /** Whether the environment asks for shared ports. */
  public static boolean requested(Map<String, String> env) {
    return Boolean.parseBoolean(env.getOrDefault(VARIABLE, "false"));
  }

  /** A Vert.x instance that uses the native transport when a port is to be shared. */
  public static Vertx vertx(VertxOptions options, boolean shared) {
    Vertx vertx = Vertx.vertx(options.setPreferNativeTransport(shared));
    if (shared && !vertx.isNativeTransportEnabled()) {
      Throwable cause = vertx.unavailableNativeTransportCause();
      vertx.close();
      throw new IllegalStateException(
          VARIABLE + "=true needs Linux's native epoll transport, which is unavailable: " + cause, cause);
    }
    return vertx;
  }

  /** The server options, set to share their port when asked. */
  public static <T extends NetServerOptions> T listen(T options, boolean shared) {
    options.setReusePort(shared);
    return options;
  }

  /**
   * Closes the server's listening socket and keeps the connections it accepted. With a successor
   * listening on the same port, the kernel then gives it every new connection, those still queued
   * here included (net.ipv4.tcp_migrate_req), while this server answers on the ones it has: no
   * connection is cut between its TLS handshake and its first request. Vert.x 4 offers only a
   * close of listener and connections together, so the listener is taken from its server.
   */
  public static void stopAccepting(HttpServer server) {
    try {
      TCPServerBase actual = (TCPServerBase) field(TCPServerBase.class, "actualServer").get(server);
      @SuppressWarnings("unchecked")
      Future<Channel> bound = (Future<Channel>) field(TCPServerBase.class, "bindFuture").get(actual);
      bound.result().close().await(10, TimeUnit.SECONDS);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException("this Vert.x version does not let a listener close alone", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Field field(Class<?> type, String name) throws NoSuchFieldException {
    Field field = type.getDeclaredField(name);
    field.setAccessible(true);
    return field;
  }
}
