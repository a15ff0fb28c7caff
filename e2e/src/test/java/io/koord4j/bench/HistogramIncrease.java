package io.koord4j.bench;

import java.util.Map;
import java.util.TreeMap;

/**
 * The increase of a Prometheus histogram between reads of its {@code /metrics}, per value of one
 * label, summed over measured phases: e.g. how long the API server waited for each webhook
 * ({@link #API_SERVER_WEBHOOKS}, by webhook name) or how long koord4j's webhook took per review
 * (by path).
 */
final class HistogramIncrease {
  /** The API server's view of a webhook call: connection, TLS, the request, the webhook's work and the answer. */
  static final String API_SERVER_WEBHOOKS = "apiserver_admission_webhook_admission_duration_seconds";

  private final String metric;
  private final String label;
  /** Per label value: cumulative counts by upper bound, with the sum and count. */
  private final Map<String, TreeMap<Double, Double>> buckets = new TreeMap<>();
  private final Map<String, double[]> sumAndCount = new TreeMap<>();

  /**
   * @param metric the histogram's name, without {@code _bucket}, {@code _sum} or {@code _count}
   * @param label the label that tells its series apart, e.g. {@code name}
   */
  HistogramIncrease(String metric, String label) {
    this.metric = metric;
    this.label = label;
  }

  /** Adds what happened between the two reads. */
  void add(PrometheusText before, PrometheusText after) {
    for (PrometheusText.Sample sample : after.samples(metric + "_bucket")) {
      double delta = sample.value() - before.sum(metric + "_bucket", sample::sameSeries);
      buckets
          .computeIfAbsent(sample.label(label), key -> new TreeMap<>())
          .merge(PrometheusText.number(sample.label("le")), delta, Double::sum);
    }
    for (String part : new String[] {"_sum", "_count"}) {
      for (PrometheusText.Sample sample : after.samples(metric + part)) {
        double delta = sample.value() - before.sum(metric + part, sample::sameSeries);
        sumAndCount.computeIfAbsent(sample.label(label), key -> new double[2])[part.equals("_sum") ? 0 : 1] += delta;
      }
    }
  }

  /** The label values that had observations in the added phases. */
  Iterable<String> observed() {
    return sumAndCount.entrySet().stream().filter(e -> e.getValue()[1] > 0).map(Map.Entry::getKey).toList();
  }

  long count(String key) {
    double[] both = sumAndCount.get(key);
    return both == null ? 0 : Math.round(both[1]);
  }

  double meanMillis(String key) {
    double[] both = sumAndCount.get(key);
    return both == null ? Double.NaN : both[0] / both[1] * 1000;
  }

  /** The share of observations within {@code millis}, if that is a bucket bound. */
  double shareWithin(String key, double millis) {
    return buckets.get(key).getOrDefault(millis / 1000, Double.NaN) / sumAndCount.get(key)[1];
  }

  /**
   * The quantile estimated as Prometheus does (linear within the bucket), so it is as coarse as
   * the buckets: the API server's bounds are 5, 25, 100, 500 ms and up.
   */
  double quantileMillis(String key, double quantile) {
    TreeMap<Double, Double> cumulative = buckets.get(key);
    if (cumulative == null) {
      return Double.NaN;
    }
    double rank = quantile * sumAndCount.get(key)[1];
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
