package io.koord4j.queue.core;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Requeue delay after a preemption, a failed admission check or pods that did not start:
 * {@code min(initial * 2^(attempt - 1), max)}, then spread by up to ±10 % so that units requeued
 * together do not return together.
 *
 * @param initial delay after the first requeue (koord-queue {@code podInitialBackoffSeconds})
 * @param max cap before jitter (koord-queue {@code podMaxBackoffSeconds})
 */
public record Backoff(Duration initial, Duration max) {

  public static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(10), Duration.ofMinutes(15));
  static final double JITTER = 0.1;

  public Backoff {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "backoff needs 0 < initial <= max, got initial " + initial + " and max " + max);
    }
  }

  /**
   * @param attempt how many times the unit has been requeued, counting this time (1 or more)
   */
  public Duration delay(int attempt, RandomGenerator random) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt must be 1 or more, got " + attempt);
    }
    long cap = max.toMillis();
    long delay = initial.toMillis();
    // Doubling stops at the cap, so it never overflows however many attempts there were.
    for (int i = 1; i < attempt && delay < cap; i++) {
      delay *= 2;
    }
    double jitter = 1 + random.nextDouble(-JITTER, JITTER);
    return Duration.ofMillis(Math.round(Math.min(delay, cap) * jitter));
  }
}
