package io.koord4j.webhook.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Two timers per admission path. {@code koord4j_webhook_admission_seconds{path=...}} in
 * Prometheus: from a review's last byte to its answer, worker-pool wait included, the time the
 * webhook takes. {@code koord4j_webhook_review_receipt_seconds{path=...}}: from the review's
 * headers to its last byte, the time the API server (and the connection) take to send it; the API
 * server waits for both. A few fixed buckets around the API server's 10 s webhook timeout keep them
 * cheap; a registry that wants percentiles can add them with a meter filter.
 */
final class AdmissionTimers {
  private static final Duration[] BUCKETS = {
    Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
    Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
    Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5),
    Duration.ofSeconds(10)
  };

  /** A path's receipt and answer timers. */
  record PathTimers(Timer receipt, Timer answer) {}

  private final Map<String, PathTimers> timers;

  AdmissionTimers(MeterRegistry registry, Set<String> paths) {
    this.timers =
        paths.stream()
            .collect(
                Collectors.toUnmodifiableMap(
                    Function.identity(),
                    path ->
                        new PathTimers(
                            timer(registry, AdmissionServer.RECEIPT_TIMER, path,
                                "Time from an admission review's headers to its last byte"),
                            timer(registry, AdmissionServer.ADMISSION_TIMER, path,
                                "Time from an admission review's last byte to its answer"))));
  }

  PathTimers forPath(String path) {
    return timers.get(path);
  }

  private static Timer timer(MeterRegistry registry, String name, String path, String description) {
    return Timer.builder(name)
        .description(description)
        .tag("path", path)
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
  }
}
