package io.koord4j.queue.core;

import java.time.Instant;

/**
 * What the core knows about a unit, for the QueueUnit status.
 *
 * @param attempts how many times the unit was requeued ({@code status.requeueState.count})
 * @param backoffUntil end of the current backoff ({@code requeueAt}); null when not backing off
 * @param admittedAt null unless admitted
 * @param preempting true while a preemption decision awaits the controller's confirmation
 */
public record UnitStatus(
    UnitSpec spec,
    UnitPhase phase,
    int attempts,
    Instant backoffUntil,
    Instant admittedAt,
    boolean podsRunning,
    boolean preempting) {}
