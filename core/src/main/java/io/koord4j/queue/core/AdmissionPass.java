package io.koord4j.queue.core;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decisions of one pass.
 *
 * @param admitted units now admitted, in decision order; the core already counts their quota
 * @param preemptions admitted units the controller must evict; their quota stays counted until
 *     the controller confirms with {@link AdmissionCore#requeue}
 * @param timedOutVictims victims that did not stop in time: preemption no longer waits for them
 *     (each reported once)
 * @param waiting every pending and backing-off unit, in queue order, by id
 * @param nextPassBy when the earliest backoff ends or victim times out: the latest time for the
 *     next pass
 * @param reservations the starts backfilling queues hold for their blocked units
 */
public record AdmissionPass(
    List<String> admitted,
    List<Preemption> preemptions,
    List<String> timedOutVictims,
    Map<String, WaitingUnit> waiting,
    Optional<Instant> nextPassBy,
    List<Reservation> reservations) {

  public AdmissionPass {
    admitted = List.copyOf(admitted);
    preemptions = List.copyOf(preemptions);
    timedOutVictims = List.copyOf(timedOutVictims);
    waiting = Collections.unmodifiableMap(waiting);
    reservations = List.copyOf(reservations);
  }
}
