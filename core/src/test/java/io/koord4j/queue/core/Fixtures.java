package io.koord4j.queue.core;

import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import java.time.Instant;
import java.util.SplittableRandom;

/** Small builders shared by the core's tests; amounts are whole CPUs. */
final class Fixtures {

  static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

  private Fixtures() {}

  static ResourceVector cpu(long cores) {
    return ResourceVector.of("cpu", cores * 1000);
  }

  static Instant at(long seconds) {
    return T0.plusSeconds(seconds);
  }

  static UnitSpec unit(
      String id, String queue, String quota, int priority, long arrival, long cores) {
    return new UnitSpec(id, queue, quota, priority, at(arrival), cpu(cores), 1);
  }

  /** A lending leaf with the given min and max. */
  static QuotaSpec leaf(String name, String parent, long min, long max) {
    return QuotaSpec.leaf(name, parent, cpu(min), cpu(max));
  }

  static QuotaSpec group(String name, String parent, long min, long max) {
    return QuotaSpec.group(name, parent, cpu(min), cpu(max));
  }

  /** A core with one top-level leaf quota {@code team} of {@code cores} and a Priority queue q. */
  static AdmissionCore singleTeam(long cores) {
    AdmissionCore core = newCore();
    core.setClusterTotal(cpu(cores));
    core.upsertQuota(leaf("team", "", cores, cores));
    core.upsertQueue(QueueConfig.of("q"));
    return core;
  }

  static AdmissionCore newCore() {
    return new AdmissionCore(new SplittableRandom(42));
  }
}
