package io.koord4j.koordlet.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

/**
 * The latest samples of one metric in a fixed-size ring, so that memory stays bounded however long
 * koordlet runs. Not thread-safe: one collector thread writes, readers copy under its lock.
 */
public final class MetricSeries {
  private final long[] times;
  private final double[] values;
  private int next;
  private int size;

  public MetricSeries(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("a series needs room for at least one sample, not " + capacity);
    }
    times = new long[capacity];
    values = new double[capacity];
  }

  public void add(Instant at, double value) {
    times[next] = at.toEpochMilli();
    values[next] = value;
    next = (next + 1) % times.length;
    size = Math.min(size + 1, times.length);
  }

  public Optional<Double> latest() {
    return size == 0 ? Optional.empty() : Optional.of(values[(next - 1 + times.length) % times.length]);
  }

  /** avg and nearest-rank percentiles of the samples taken in {@code (now - window, now]}. */
  public Optional<Aggregation> aggregate(Duration window, Instant now) {
    long from = now.minus(window).toEpochMilli();
    long to = now.toEpochMilli();
    double[] inWindow = new double[size];
    int count = 0;
    for (int i = 0; i < size; i++) {
      if (times[i] > from && times[i] <= to) {
        inWindow[count++] = values[i];
      }
    }
    if (count == 0) {
      return Optional.empty();
    }
    double[] sorted = Arrays.copyOf(inWindow, count);
    Arrays.sort(sorted);
    double sum = 0;
    for (double value : sorted) {
      sum += value;
    }
    return Optional.of(
        new Aggregation(
            sum / count,
            rank(sorted, 0.50),
            rank(sorted, 0.90),
            rank(sorted, 0.95),
            rank(sorted, 0.99),
            count));
  }

  private static double rank(double[] sorted, double quantile) {
    int index = (int) Math.ceil(quantile * sorted.length) - 1;
    return sorted[Math.max(0, index)];
  }
}
