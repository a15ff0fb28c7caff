package io.koord4j.koordlet.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MetricSeriesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void aggregatesAvgAndNearestRankPercentilesOverTheWindow() {
    MetricSeries series = new MetricSeries(200);
    for (int i = 1; i <= 100; i++) {
      series.add(T0.plusSeconds(i), i);
    }

    Aggregation all = series.aggregate(Duration.ofSeconds(100), T0.plusSeconds(100)).orElseThrow();
    assertThat(all.samples()).isEqualTo(100);
    assertThat(all.avg()).isEqualTo(50.5);
    assertThat(all.p50()).isEqualTo(50);
    assertThat(all.p90()).isEqualTo(90);
    assertThat(all.p95()).isEqualTo(95);
    assertThat(all.p99()).isEqualTo(99);

    Aggregation last10 = series.aggregate(Duration.ofSeconds(10), T0.plusSeconds(100)).orElseThrow();
    assertThat(last10.samples()).isEqualTo(10);
    assertThat(last10.avg()).isEqualTo(95.5);
    assertThat(last10.p50()).isEqualTo(95);
  }

  @Test
  void keepsOnlyTheNewestSamples() {
    MetricSeries series = new MetricSeries(3);
    for (int i = 1; i <= 5; i++) {
      series.add(T0.plusSeconds(i), i * 10);
    }
    Aggregation kept = series.aggregate(Duration.ofHours(1), T0.plusSeconds(5)).orElseThrow();
    assertThat(kept.samples()).isEqualTo(3);
    assertThat(kept.avg()).isEqualTo(40);
    assertThat(series.latest()).contains(50.0);
  }

  @Test
  void anEmptyWindowHasNoAggregate() {
    MetricSeries series = new MetricSeries(3);
    assertThat(series.latest()).isEmpty();
    series.add(T0, 1);
    assertThat(series.aggregate(Duration.ofSeconds(5), T0.plusSeconds(60))).isEmpty();
    assertThatThrownBy(() -> new MetricSeries(0)).hasMessageContaining("at least one sample");
  }
}
