package io.koord4j.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * How long the API server waited for each webhook, by webhook name, summed over measured phases:
 * the increase of {@code apiserver_admission_webhook_admission_duration_seconds} between two reads
 * of its metrics. This is the server's view: connection, TLS, the request on the wire, the
 * webhook's work and the answer.
 */
final class WebhookDurations {
  static final String METRIC = "apiserver_admission_webhook_admission_duration_seconds";

  /** Per webhook name: cumulative counts by upper bound, with the sum and count. */
  private final Map<String, TreeMap<Double, Double>> buckets = new TreeMap<>();
  private final Map<String, double[]> sumAndCount = new TreeMap<>();

  /** Adds what happened between the two reads. */
  void add(PrometheusText before, PrometheusText after) {
    for (PrometheusText.Sample sample : after.samples(METRIC + "_bucket")) {
      double delta = sample.value() - before.sum(METRIC + "_bucket", sample::sameSeries);
      buckets
          .computeIfAbsent(sample.label("name"), name -> new TreeMap<>())
          .merge(PrometheusText.number(sample.label("le")), delta, Double::sum);
    }
    for (String part : new String[] {"_sum", "_count"}) {
      for (PrometheusText.Sample sample : after.samples(METRIC + part)) {
        double delta = sample.value() - before.sum(METRIC + part, sample::sameSeries);
        sumAndCount.computeIfAbsent(sample.label("name"), name -> new double[2])[part.equals("_sum") ? 0 : 1] += delta;
      }
    }
  }

  /** Names of the webhooks called in the added phases. */
  Iterable<String> called() {
    return sumAndCount.entrySet().stream().filter(e -> e.getValue()[1] > 0).map(Map.Entry::getKey).toList();
  }

  long calls(String name) {
    return Math.round(sumAndCount.get(name)[1]);
  }

  double meanMillis(String name) {
    double[] both = sumAndCount.get(name);
    return both[0] / both[1] * 1000;
  }

  /** The share of calls answered within {@code millis}, if that is a bucket bound. */
  double shareWithin(String name, double millis) {
    return buckets.get(name).getOrDefault(millis / 1000, Double.NaN) / sumAndCount.get(name)[1];
  }

  /**
   * The quantile estimated as Prometheus does (linear within the bucket); the API server's bounds
   * are 5, 25, 100, 500 ms and up, so this is coarse.
   */
  double quantileMillis(String name, double quantile) {
    TreeMap<Double, Double> cumulative = buckets.get(name);
    double total = sumAndCount.get(name)[1];
    double rank = quantile * total;
    double lowerBound = 0;
    double lowerCount = 0;
    for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
      if (bucket.getValue() >= rank) {
        if (bucket.getKey().isInfinite()) {
          return lowerBound * 1000;
        }
        double inBucket = bucket.getValue() - lowerCount;
        double fraction = inBucket == 0 ? 0 : (rank - lowerCount) / inBucket;
        return (lowerBound + (bucket.getKey() - lowerBound) * fraction) * 1000;
      }
      lowerBound = bucket.getKey();
      lowerCount = bucket.getValue();
    }
    return Double.NaN;
  }
}
