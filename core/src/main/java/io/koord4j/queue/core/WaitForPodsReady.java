package io.koord4j.queue.core;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * How long an admitted unit's pods may take to become ready, and how a unit evicted for that is
 * requeued (Kueue's {@code waitForPodsReady} with its {@code requeuingStrategy}).
 *
 * @param timeout from admission until every pod must be ready; null turns the check off
 * @param backoffBase the delay after the first eviction; each further one doubles it
 * @param backoffMax the delay never grows beyond this
 * @param backoffLimitCount how many evictions are requeued; the one after is deactivated instead.
 *     Empty means without limit.
 */
public record WaitForPodsReady(
    Duration timeout, Duration backoffBase, Duration backoffMax, OptionalInt backoffLimitCount) {

  /** Kueue's defaults: five minutes, then 60 s doubling up to an hour, never deactivated. */
  public static final WaitForPodsReady DEFAULTS =
      new WaitForPodsReady(
          Duration.ofMinutes(5), Duration.ofSeconds(60), Duration.ofHours(1), OptionalInt.empty());

  public WaitForPodsReady {
    Objects.requireNonNull(backoffBase, "backoffBase");
    Objects.requireNonNull(backoffMax, "backoffMax");
    Objects.requireNonNull(backoffLimitCount, "backoffLimitCount");
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException("the pods-ready timeout must be positive, not " + timeout);
    }
    if (backoffBase.isNegative() || backoffBase.isZero() || backoffMax.compareTo(backoffBase) < 0) {
      throw new IllegalArgumentException(
          "the requeue backoff needs 0 < base <= max, got base " + backoffBase + " and max " + backoffMax);
    }
    if (backoffLimitCount.orElse(0) < 0) {
      throw new IllegalArgumentException(
          "the requeue limit must be 0 or more, not " + backoffLimitCount.getAsInt());
    }
  }

  /**
   * The delay before the {@code requeue}-th requeue (1 or more): the base doubled for each earlier
   * one, capped at the max. No jitter: a restarted manager computes the same time.
   */
  public Duration delay(int requeue) {
    if (requeue < 1) {
      throw new IllegalArgumentException("requeue must be 1 or more, got " + requeue);
    }
    Duration delay = backoffBase;
    for (int i = 1; i < requeue && delay.compareTo(backoffMax) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(backoffMax) < 0 ? delay : backoffMax;
  }

  /** Whether the {@code requeue}-th eviction is past the limit, so the unit is deactivated. */
  boolean exceedsLimit(int requeue) {
    return backoffLimitCount.isPresent() && requeue > backoffLimitCount.getAsInt();
  }

  public WaitForPodsReady withTimeout(Duration value) {
    return new WaitForPodsReady(value, backoffBase, backoffMax, backoffLimitCount);
  }
}
