package io.koord4j.webhook.admission;

import io.vertx.core.Context;

/**
 * Thrown by a lookup that would have to wait for the API server while it runs on an event loop.
 * Reviews are first answered on the event loop that read them, since nearly all are answered from
 * memory and a hand-off to another thread costs a wait for a core on a busy node; a review whose
 * handler throws this is answered again on a worker thread, where the lookup may block.
 */
public final class WouldBlock extends RuntimeException {

  private WouldBlock() {
    super("a lookup needs the API server", null, false, false);
  }

  /** Call before anything that may block: throws when the calling thread must not. */
  public static void unlessBlockingAllowed() {
    if (Context.isOnEventLoopThread()) {
      throw new WouldBlock();
    }
  }
}
