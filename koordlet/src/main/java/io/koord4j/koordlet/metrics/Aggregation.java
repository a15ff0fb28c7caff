package io.koord4j.koordlet.metrics;

import java.util.Map;

/** Koordinator's statistics of one metric over a window. */
public record Aggregation(double avg, double p50, double p90, double p95, double p99, int samples) {

  /** Keyed as NodeMetric's {@code aggregatedNodeUsages[].usage} is: avg, p50, p90, p95, p99. */
  public Map<String, Double> byName() {
    return Map.of("avg", avg, "p50", p50, "p90", p90, "p95", p95, "p99", p99);
  }
}
