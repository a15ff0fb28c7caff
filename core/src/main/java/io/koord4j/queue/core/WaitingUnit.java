package io.koord4j.queue.core;

/**
 * A unit that was not admitted in a pass.
 *
 * @param phase {@link UnitPhase#PENDING} or {@link UnitPhase#BACKOFF}
 * @param position 1-based place among the units of the same queue and phase, in queue order (the
 *     {@code active} and {@code backoff} lists of the Queue's status)
 */
public record WaitingUnit(
    String unitId, String queue, UnitPhase phase, int position, WaitReason reason) {}
