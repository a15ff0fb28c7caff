package io.koord4j.bench;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a load phase achieved: the client-side latency of every successful call, the failures,
 * and how long sending took.
 *
 * @param firstFailure the first failure's message, to show in the report
 */
record LoadResult(long[] latencyNanos, int failures, Optional<String> firstFailure, double seconds) {
  LoadResult {
    latencyNanos = latencyNanos.clone();
    Arrays.sort(latencyNanos);
  }

  static final LoadResult NONE = new LoadResult(new long[0], 0, Optional.empty(), 0);

  /** Both phases as one. */
  LoadResult plus(LoadResult other) {
    long[] both = Arrays.copyOf(latencyNanos, latencyNanos.length + other.latencyNanos.length);
    System.arraycopy(other.latencyNanos, 0, both, latencyNanos.length, other.latencyNanos.length);
    return new LoadResult(
        both, failures + other.failures, firstFailure.or(other::firstFailure), seconds + other.seconds);
  }

  int calls() {
    return latencyNanos.length + failures;
  }

  /** Calls completed per second, failed ones included. */
  double rate() {
    return calls() / seconds;
  }

  /** The nearest-rank percentile, e.g. 0.99, in milliseconds. */
  double percentileMillis(double quantile) {
    if (latencyNanos.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(quantile * latencyNanos.length);
    return latencyNanos[Math.max(rank, 1) - 1] / 1e6;
  }
}
