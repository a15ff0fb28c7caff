package io.koord4j.queue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What {@link RunLimits} judges an admitted unit by. All but {@code podsReadyNow} is read from
 * the unit as stored, so that a restarted manager judges it the same.
 *
 * @param active the unit's {@code spec.active}
 * @param admittedAt when its quota was last reserved ({@code status.lastAllocateTime})
 * @param podsExpected false while admission checks still hold its job back: no pod can be ready
 * @param podsReadyRecorded its PodsReady condition is True: its pods were all ready once
 * @param podsReadyNow every pod of its gang is ready or succeeded now
 * @param requeues how many times it was requeued ({@code status.requeueState.count})
 * @param maximumExecutionTime how long it may stay admitted; null for no limit
 */
public record AdmittedUnit(
    boolean active,
    Instant admittedAt,
    boolean podsExpected,
    boolean podsReadyRecorded,
    boolean podsReadyNow,
    int requeues,
    Duration maximumExecutionTime) {

  public AdmittedUnit {
    Objects.requireNonNull(admittedAt, "admittedAt");
  }

  boolean awaitsPodsReady() {
    return podsExpected && !podsReadyRecorded && !podsReadyNow;
  }
}
