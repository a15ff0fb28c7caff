package io.koord4j.bench;

import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * Calls {@code create(i)} at a fixed rate from a pool of threads and times each call. Calls are
 * started on schedule whatever earlier calls do, as independent users would; if the pool falls
 * behind, the achieved rate shows it.
 */
final class CreateLoad {
  private final double perSecond;
  private final int threads;

  CreateLoad(double perSecond, int threads) {
    this.perSecond = perSecond;
    this.threads = threads;
  }

  double perSecond() {
    return perSecond;
  }

  LoadResult run(double seconds, IntConsumer create) throws InterruptedException {
    int calls = (int) Math.round(seconds * perSecond);
    long periodNanos = (long) (1e9 / perSecond);
    long[] latencies = new long[calls];
    boolean[] failed = new boolean[calls];
    AtomicInteger failures = new AtomicInteger();
    AtomicReference<String> firstFailure = new AtomicReference<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long start = System.nanoTime();
    for (int i = 0; i < calls; i++) {
      long due = start + i * periodNanos;
      for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
        LockSupport.parkNanos(wait);
      }
      int call = i;
      pool.execute(
          () -> {
            long begin = System.nanoTime();
            try {
              create.accept(call);
              latencies[call] = System.nanoTime() - begin;
            } catch (RuntimeException e) {
              failed[call] = true;
              failures.incrementAndGet();
              firstFailure.compareAndSet(null, e.toString());
            }
          });
    }
    pool.shutdown();
    if (!pool.awaitTermination(5, TimeUnit.MINUTES)) {
      pool.shutdownNow();
      throw new IllegalStateException("creates still running 5 minutes after the last was sent");
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    long[] succeeded = new long[calls - failures.get()];
    for (int i = 0, next = 0; i < calls; i++) {
      if (!failed[i]) {
        succeeded[next++] = latencies[i];
      }
    }
    return new LoadResult(succeeded, failures.get(), Optional.ofNullable(firstFailure.get()), elapsed);
  }
}
