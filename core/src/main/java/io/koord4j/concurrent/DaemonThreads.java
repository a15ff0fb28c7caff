package io.koord4j.concurrent;

import java.util.concurrent.ThreadFactory;

/** Threads that do not keep the process alive: its shutdown, not theirs, ends the work. */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** Makes daemon threads, each named {@code name} (for single-thread executors). */
  public static ThreadFactory named(String name) {
    return task -> {
      Thread thread = new Thread(task, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
