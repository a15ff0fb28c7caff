package io.koord4j.e2e.chaos;

import io.koord4j.testing.JavaProcess;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Replicas of one component kept at their number as a Deployment would: a replica that has
 * exited (killed, or gone after losing its Lease) is replaced within a second.
 */
final class Replicas<P extends JavaProcess> implements AutoCloseable {
  /** Starts the {@code n}th replica (counting from 1). */
  interface Starter<P> {
    P start(int n) throws IOException;
  }

  private final Starter<P> starter;
  private final List<P> replicas = new ArrayList<>();
  private final ScheduledExecutorService supervisor = Executors.newSingleThreadScheduledExecutor();
  private int started;

  Replicas(Starter<P> starter) {
    this.starter = starter;
  }

  synchronized Replicas<P> start(int count) throws IOException {
    for (int i = 0; i < count; i++) {
      replicas.add(next());
    }
    supervisor.scheduleWithFixedDelay(this::replaceExited, 1, 1, TimeUnit.SECONDS);
    return this;
  }

  /** A live replica that {@code test} accepts. */
  synchronized Optional<P> find(Predicate<P> test) {
    return replicas.stream().filter(JavaProcess::isAlive).filter(test).findFirst();
  }

  /** Replicas started in all, the first ones included. */
  synchronized int started() {
    return started;
  }

  @Override
  public synchronized void close() throws InterruptedException {
    supervisor.shutdownNow();
    for (P replica : replicas) {
      replica.stop();
    }
  }

  private synchronized void replaceExited() {
    try {
      for (int i = 0; i < replicas.size(); i++) {
        if (!replicas.get(i).isAlive()) {
          replicas.set(i, next());
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot start a replica", e);
    }
  }

  private P next() throws IOException {
    return starter.start(++started);
  }
}
