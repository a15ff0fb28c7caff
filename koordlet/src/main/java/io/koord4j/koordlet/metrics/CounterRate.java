package io.koord4j.koordlet.metrics;

/** Turns a cumulative CPU-time counter (ns) into cores used between two reads. */
final class CounterRate {
  private long lastCounter = -1;
  private long lastNanos;

  /** Cores used since the previous read; empty (NaN) on the first read or after a counter reset. */
  double next(long counterNanos, long monotonicNanos) {
    double cores = Double.NaN;
    if (lastCounter >= 0 && counterNanos >= lastCounter && monotonicNanos > lastNanos) {
      cores = (double) (counterNanos - lastCounter) / (monotonicNanos - lastNanos);
    }
    lastCounter = counterNanos;
    lastNanos = monotonicNanos;
    return cores;
  }
}
