package io.koord4j.queue.core;

import io.koord4j.quota.QuotaLedger;
import io.koord4j.quota.QuotaLedger.UsedScenario;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Conservative backfill for one pass, as Slurm's: a blocked unit is reserved the earliest start at
 * which the admitted units' expected ends free its request, and a later unit may go ahead only if
 * it is expected to end by that start, or if the reserved unit would still fit at that start with
 * the later unit running. Units whose runtime is unknown never end in this plan; a unit that
 * outlives its estimate may end any moment, so it counts as ending now. Nothing is ever stopped.
 */
final class Backfill {
  private final QuotaLedger ledger;
  private final Instant now;
  private final Collection<? extends Collection<QueuedUnit>> admitted;
  private final Map<String, Plan> plans = new HashMap<>();
  private List<QueuedUnit> endings;

  /** A reservation and the used amounts expected at its start. */
  private record Plan(QueuedUnit unit, Reservation reservation, UsedScenario atStart) {}

  /** @param admitted the units that hold quota, by quota; read on the first reservation */
  Backfill(QuotaLedger ledger, Instant now, Collection<? extends Collection<QueuedUnit>> admitted) {
    this.ledger = ledger;
    this.now = now;
    this.admitted = admitted;
  }

  /** Reserves a start for a unit the quota cannot admit now; empty when no expected end frees enough. */
  Optional<Reservation> reserve(QueuedUnit blocked) {
    UsedScenario scenario = ledger.scenario();
    for (QueuedUnit running : endings()) {
      scenario.release(running.quota(), running.spec.request());
      if (scenario.canAdmit(blocked.quota(), blocked.spec.request()).admissible()) {
        Reservation reservation = new Reservation(blocked.id(), expectedEnd(running).orElseThrow());
        plans.put(blocked.id(), new Plan(blocked, reservation, scenario));
        return Optional.of(reservation);
      }
    }
    return Optional.empty();
  }

  /** Whether a later unit may be admitted now without delaying the reserved one. */
  boolean allows(String reservedId, QueuedUnit candidate) {
    Plan plan = plans.get(reservedId);
    if (plan == null) {
      return false;
    }
    Duration runtime = candidate.spec.expectedRuntime();
    if (runtime != null && !now.plus(runtime).isAfter(plan.reservation().start())) {
      return true;
    }
    plan.atStart().add(candidate.quota(), candidate.spec.request());
    boolean leavesRoom =
        plan.atStart().canAdmit(plan.unit().quota(), plan.unit().spec.request()).admissible();
    plan.atStart().release(candidate.quota(), candidate.spec.request());
    return leavesRoom;
  }

  /**
   * Records a later unit admitted by {@link #allows}: if it runs past the reserved start, it holds
   * its request then too.
   */
  void admitted(String reservedId, QueuedUnit unit) {
    Plan plan = plans.get(reservedId);
    Duration runtime = unit.spec.expectedRuntime();
    if (runtime == null || now.plus(runtime).isAfter(plan.reservation().start())) {
      plan.atStart().add(unit.quota(), unit.spec.request());
    }
  }

  Optional<Reservation> reservation(String unitId) {
    return Optional.ofNullable(plans.get(unitId)).map(Plan::reservation);
  }

  List<Reservation> reservations() {
    return plans.values().stream().map(Plan::reservation).toList();
  }

  /** Admitted units with an expected end, earliest first; collected once per pass. */
  private List<QueuedUnit> endings() {
    if (endings == null) {
      endings = new ArrayList<>();
      admitted.stream().flatMap(Collection::stream).filter(u -> expectedEnd(u).isPresent()).forEach(endings::add);
      endings.sort(Comparator.comparing((QueuedUnit u) -> expectedEnd(u).orElseThrow()).thenComparing(QueuedUnit::id));
    }
    return endings;
  }

  private Optional<Instant> expectedEnd(QueuedUnit unit) {
    Duration runtime = unit.spec.expectedRuntime();
    if (runtime == null || unit.admittedAt == null) {
      return Optional.empty();
    }
    Instant end = unit.admittedAt.plus(runtime);
    return Optional.of(end.isBefore(now) ? now : end);
  }
}
