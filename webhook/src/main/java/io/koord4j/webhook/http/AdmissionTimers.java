package io.koord4j.webhook.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One timer per admission path, {@code koord4j_webhook_admission_seconds{path=...}} in
 * Prometheus: from a review's arrival to its answer, worker-pool wait included, which is what the
 * API server waits for. A few fixed buckets around the API server's 10 s webhook timeout keep it
 * cheap; a registry that wants percentiles can add them with a meter filter.
 */
final class AdmissionTimers {
  private static final Duration[] BUCKETS = {
    Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
    Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
    Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5),
    Duration.ofSeconds(10)
  };

  private final Map<String, Timer> timers;

  AdmissionTimers(MeterRegistry registry, Set<String> paths) {
    this.timers =
        paths.stream()
            .collect(
                Collectors.toUnmodifiableMap(Function.identity(), path -> timer(registry, path)));
  }

  Timer forPath(String path) {
    return timers.get(path);
  }

  private static Timer timer(MeterRegistry registry, String path) {
    return Timer.builder(AdmissionServer.ADMISSION_TIMER)
        .description("Time from an admission review's arrival to its answer")
        .tag("path", path)
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
  }
}
