package io.koord4j.manager.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * At most one write per object in each interval. Figures that change with every admission (a
 * quota's use, a queue's positions) would otherwise be written after each one: a write's own
 * event brings the next reconcile, which finds newer figures. Paced, an object shows figures at
 * most one interval old, and its writes no longer grow with the admission rate.
 */
public final class WritePacing {
  /** How long a published figure may lag the admission loop's. */
  public static final Duration INTERVAL = Duration.ofSeconds(1);

  private final Duration interval;
  private final Clock clock;
  private final Map<String, Instant> lastWrite = new ConcurrentHashMap<>();

  public WritePacing(Duration interval, Clock clock) {
    this.interval = interval;
    this.clock = clock;
  }

  /**
   * Whether the object may be written now; if so, the write is counted as made. Otherwise, how
   * long until it may: reconcile it again then.
   */
  public Optional<Duration> waitBeforeWriting(String key) {
    Instant now = clock.instant();
    Instant last = lastWrite.get(key);
    if (last != null && now.isBefore(last.plus(interval))) {
      return Optional.of(Duration.between(now, last.plus(interval)));
    }
    lastWrite.put(key, now);
    return Optional.empty();
  }
}
