package io.koord4j.testing;

import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a component's main class in a JVM that ends with the test JVM that started it. A test JVM
 * killed mid-run (its build interrupted, its machine's session ended) would otherwise leave its
 * managers leading and admitting every queued job of the shared local cluster, the next run's too.
 *
 * <p>Arguments: the parent's process id, the main class, then the main class's arguments.
 */
public final class TiedToParent {
  private TiedToParent() {}

  public static void main(String[] args) throws Throwable {
    long parent = Long.parseLong(args[0]);
    Thread watch = new Thread(() -> haltOnceGone(parent), "parent-watch");
    watch.setDaemon(true);
    watch.start();
    try {
      Class.forName(args[1])
          .getMethod("main", String[].class)
          .invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** Halts, not exits: no shutdown hook may keep an orphan alive. */
  private static void haltOnceGone(long parent) {
    ProcessHandle.of(parent).ifPresent(TiedToParent::awaitExit);
    System.err.println("the test JVM " + parent + " that started this process is gone; halting");
    Runtime.getRuntime().halt(137);
  }

  /** Says once the watch is in place, so that a log (or a test) shows the parent was found alive. */
  private static void awaitExit(ProcessHandle parent) {
    CompletableFuture<ProcessHandle> exit = parent.onExit();
    System.err.println("watching the test JVM " + parent.pid() + " that started this process");
    exit.join();
  }
}
