package io.koord4j.bench;

import java.util.Arrays;
import java.util.Locale;

/** What admits the jobs of benchmarks B2 and B3. */
enum AdmissionSystem {
  KOORD4J("koord4j", "koord4j"),
  KUEUE("kueue", "Kueue"),
  /** No queue: jobs created unsuspended run at once (the ceiling of B3). */
  NONE("none", "no queue");

  private final String id;
  private final String label;

  AdmissionSystem(String id, String label) {
    this.id = id;
    this.label = label;
  }

  String id() {
    return id;
  }

  static AdmissionSystem of(String id) {
    return Arrays.stream(values())
        .filter(system -> system.id.equals(id.strip().toLowerCase(Locale.ROOT)))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(
            "bench.b2.systems: unknown system " + id + "; use koord4j, kueue or none"));
  }

  @Override
  public String toString() {
    return label;
  }
}
