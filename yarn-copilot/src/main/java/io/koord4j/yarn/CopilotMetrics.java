package io.koord4j.yarn;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The copilot's Prometheus metrics: per YARN cluster the sync lag (seconds since its last complete
 * round) and round duration; per node the time of the last push and pull; errors by cluster and
 * operation.
 */
final class CopilotMetrics {
  private final MeterRegistry registry;
  private final Clock clock;
  private final Map<String, AtomicLong> lastSync = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> lastPush = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> lastPull = new ConcurrentHashMap<>();

  CopilotMetrics(MeterRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  /** Starts the lag of a cluster from now, so that one that never answers shows a growing lag. */
  void watch(String cluster) {
    AtomicLong since = lastSync.computeIfAbsent(cluster, c -> new AtomicLong(clock.millis()));
    Gauge.builder("koord4j.yarn.copilot.sync.lag", since, last -> (clock.millis() - last.get()) / 1000.0)
        .description("seconds since the last complete sync round with the cluster's ResourceManager")
        .baseUnit("seconds")
        .tag("cluster", cluster)
        .register(registry);
  }

  Timer.Sample startRound() {
    return Timer.start(registry);
  }

  void synced(String cluster, Timer.Sample round) {
    round.stop(
        Timer.builder("koord4j.yarn.copilot.round")
            .description("duration of a complete sync round with one YARN cluster")
            .tag("cluster", cluster)
            .register(registry));
    lastSync.get(cluster).set(clock.millis());
  }

  void pushed(String node) {
    stamp(lastPush, "koord4j.yarn.copilot.last.push", "when a NodeManager total was last pushed for the node", node);
  }

  void pulled(String node) {
    stamp(lastPull, "koord4j.yarn.copilot.last.pull", "when YARN's use was last written to the node", node);
  }

  void error(String cluster, String operation) {
    Counter.builder("koord4j.yarn.copilot.errors")
        .description("failed calls by YARN cluster and operation (report, push, pull)")
        .tag("cluster", cluster)
        .tag("operation", operation)
        .register(registry)
        .increment();
  }

  private void stamp(Map<String, AtomicLong> stamps, String name, String description, String node) {
    stamps
        .computeIfAbsent(
            node,
            n -> {
              AtomicLong stamp = new AtomicLong();
              Gauge.builder(name, stamp, s -> s.get() / 1000.0)
                  .description(description + ", in seconds since the epoch")
                  .baseUnit("seconds")
                  .tag("node", n)
                  .register(registry);
              return stamp;
            })
        .set(clock.millis());
  }
}
