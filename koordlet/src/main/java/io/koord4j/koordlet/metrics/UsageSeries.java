package io.koord4j.koordlet.metrics;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** CPU and memory series of one node or pod. */
final class UsageSeries {
  final MetricSeries cpu;
  final MetricSeries memory;
  final CounterRate cpuRate = new CounterRate();
  /** The pod's cgroup, relative to the hierarchy roots; empty for the node. */
  final String dir;

  UsageSeries(int capacity, String dir) {
    this.dir = dir;
    cpu = new MetricSeries(capacity);
    memory = new MetricSeries(capacity);
  }

  Optional<Usage> latest() {
    return cpu.latest().flatMap(c -> memory.latest().map(m -> new Usage(c, m)));
  }

  Optional<Usage> average(Duration window, Instant now) {
    return cpu.aggregate(window, now)
        .flatMap(c -> memory.aggregate(window, now).map(m -> new Usage(c.avg(), m.avg())));
  }
}
