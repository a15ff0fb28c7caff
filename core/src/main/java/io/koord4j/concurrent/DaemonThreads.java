package io.koord4j.concurrent;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads that do not keep the process alive: its shutdown, not theirs, ends the work. */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** Makes daemon threads, each named {@code name} (for single-thread executors). */
  public static ThreadFactory named(String name) {
    return task -> daemon(task, name);
  }

  /** Makes daemon threads named {@code prefix-0}, {@code prefix-1}, … (for pools). */
  public static ThreadFactory numbered(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return task -> daemon(task, prefix + "-" + count.getAndIncrement());
  }

  /** A single daemon thread named {@code name} that runs scheduled tasks in order. */
  public static ScheduledExecutorService scheduler(String name) {
    return Executors.newSingleThreadScheduledExecutor(named(name));
  }

  private static Thread daemon(Runnable task, String name) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    return thread;
  }
}
