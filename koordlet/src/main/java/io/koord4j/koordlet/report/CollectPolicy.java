package io.koord4j.koordlet.report;

import io.koord4j.api.slo.MetricCollectPolicy;
import io.koord4j.api.slo.NodeMetric;
import java.time.Duration;
import java.util.List;

/**
 * NodeMetric's {@code spec.metricCollectPolicy} with Koordinator's defaults filled in: usage
 * averaged over 300 s, reported every 60 s, node percentiles over 5, 10 and 30 minutes.
 */
public record CollectPolicy(Duration aggregateDuration, Duration reportInterval, List<Duration> windows) {
  public static final CollectPolicy DEFAULT =
      new CollectPolicy(
          Duration.ofSeconds(300),
          Duration.ofSeconds(60),
          List.of(Duration.ofMinutes(5), Duration.ofMinutes(10), Duration.ofMinutes(30)));

  public static CollectPolicy of(NodeMetric nodeMetric) {
    MetricCollectPolicy spec =
        nodeMetric == null || nodeMetric.getSpec() == null ? null : nodeMetric.getSpec().getMetricCollectPolicy();
    if (spec == null) {
      return DEFAULT;
    }
    Duration aggregate = seconds(spec.getAggregateDurationSeconds(), DEFAULT.aggregateDuration, "aggregateDurationSeconds");
    Duration report = seconds(spec.getReportIntervalSeconds(), DEFAULT.reportInterval, "reportIntervalSeconds");
    List<Duration> windows =
        spec.getNodeAggregatePolicy() == null || spec.getNodeAggregatePolicy().getDurations() == null
            ? DEFAULT.windows
            : spec.getNodeAggregatePolicy().getDurations().stream()
                .map(value -> GoDurations.parse("spec.metricCollectPolicy.nodeAggregatePolicy.durations", value))
                .toList();
    return new CollectPolicy(aggregate, report, windows);
  }

  /** The longest span any report looks back over. */
  public Duration longestWindow() {
    return windows.stream().reduce(aggregateDuration, (a, b) -> a.compareTo(b) >= 0 ? a : b);
  }

  private static Duration seconds(Long value, Duration fallback, String field) {
    if (value == null) {
      return fallback;
    }
    if (value < 1) {
      throw new IllegalArgumentException("spec.metricCollectPolicy." + field + " must be at least 1, not " + value);
    }
    return Duration.ofSeconds(value);
  }
}
