package io.koord4j.probes;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.net.NetServerOptions;
import java.util.Map;

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
}
