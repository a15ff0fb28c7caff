package io.koord4j.probes;

import io.vertx.core.Future;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting from a plain thread for a Vert.x server to start or stop. */
public final class VertxFutures {
  /** Long enough for a loaded machine; a server that takes longer is stuck. */
  private static final long TIMEOUT_SECONDS = 30;

  private VertxFutures() {}

  /**
   * The future's result once it completes.
   *
   * @param server names the server in the error, e.g. {@code probe server}
   * @throws IOException when it fails (with its cause), or does not complete in time
   */
  public static <T> T await(Future<T> future, String server) throws IOException {
    try {
      return future.toCompletionStage().toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IOException(server + ": " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException(server + " did not answer in time", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
