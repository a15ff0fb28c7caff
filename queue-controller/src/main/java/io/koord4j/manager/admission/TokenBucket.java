package io.koord4j.manager.admission;

import java.util.function.LongSupplier;

/**
 * Tokens for writes, refilled at a steady rate up to a burst, on a monotonic clock given to it (so
 * that tests move time themselves). Not thread-safe: its owner serializes the calls.
 */
final class TokenBucket {
  private final double perNano;
  private final double burst;
  private final LongSupplier nanoTime;
  private double tokens;
  private long refilledAt;

  /** Starts full. */
  TokenBucket(WriteRate rate, LongSupplier nanoTime) {
    this.perNano = rate.perSecond() / 1e9;
    this.burst = rate.burst();
    this.nanoTime = nanoTime;
    this.tokens = burst;
    this.refilledAt = nanoTime.getAsLong();
  }

  /** How long until a token is there: zero when one is there now. */
  long nanosUntilToken() {
    refill();
    return tokens >= 1 ? 0 : (long) Math.ceil((1 - tokens) / perNano);
  }

  /**
   * Spends {@code cost} tokens at once; the balance may fall below zero, which delays the writes
   * after, so that a unit's status and its events go together and the rate still holds.
   */
  void spend(int cost) {
    refill();
    tokens -= cost;
  }

  private void refill() {
    long now = nanoTime.getAsLong();
    tokens = Math.min(burst, tokens + (now - refilledAt) * perNano);
    refilledAt = now;
  }
}
