package io.koord4j.queue.core;

import io.koord4j.quota.AdmissionResult;
import io.koord4j.quota.AdmittedUnit;
import io.koord4j.quota.QuotaLedger;
import io.koord4j.quota.ResourceVector;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One admission pass: tries every pending unit once, queue level by queue level, taking turns
 * among the queues of a level so that queues of equal priority share what is free.
 *
 * <p>Cost: one ledger check per unit, except units ruled out by a {@link KnownShortages}
 * (constant time); at most one preemption attempt per queue and quota per pass, and none for a
 * quota whose earlier preemptions are still in flight. Reclaim candidates are collected once per
 * pass and only from quotas that hold borrowed resources.
 */
final class PassRun {

  private final AdmissionCore core;
  private final Instant now;
  private final QuotaLedger ledger;
  private final PreemptionsInFlight inFlight;
  private final List<String> admitted = new ArrayList<>();
  private final Set<QueuedUnit> admittedNow = new HashSet<>();
  private final List<Preemption> preemptions = new ArrayList<>();
  private final Map<QueuedUnit, WaitReason> reasons = new HashMap<>();
  private final KnownShortages shortages = new KnownShortages();
  /** Queue and quota pairs whose preemption was tried this pass: one try each is enough. */
  private final Set<QueueQuota> preemptionTried = new HashSet<>();
  private final Backfill backfill;
  /** Units that found too little quota and started no preemption, in the order they were tried. */
  private final List<QueuedUnit> shortOfQuota = new ArrayList<>();
  private List<AdmittedUnit> borrowers;

  PassRun(AdmissionCore core, Instant now) {
    this.core = core;
    this.now = now;
    this.ledger = core.accounting().ledger();
    this.inFlight = core.preemptions();
    this.backfill = new Backfill(ledger, now, core.admittedByQuota());
  }

  /** Serves queues of one priority: one unit of each in turn until all were tried. */
  void serve(List<QueueState> level) {
    ArrayDeque<QueueCursor> turns = new ArrayDeque<>();
    level.stream().filter(q -> !q.pending.isEmpty()).map(QueueCursor::new).forEach(turns::add);
    while (!turns.isEmpty()) {
      QueueCursor cursor = turns.poll();
      QueuedUnit unit = cursor.next();
      WaitReason reason = consider(cursor, unit);
      if (reason != null) {
        reasons.put(unit, reason);
      }
      if (cursor.hasNext()) {
        turns.add(cursor);
      }
    }
  }

  /**
   * Lends idle quota ({@link QuotaLedger#fitsIdle}) to the units left short of quota, in the order
   * they were tried: without it a unit larger than its leaf's runtime share waits for as long as
   * its siblings have work queued, with the cluster idle. Not while preemptions are in flight,
   * since what their victims free is for their preemptors; borrowed this way, quota is reclaimed
   * like any other.
   */
  void lendIdle() {
    if (!preemptions.isEmpty() || !inFlight.isEmpty()) {
      return;
    }
    for (QueuedUnit unit : shortOfQuota) {
      if (ledger.fitsIdle(unit.quota(), unit.spec.request())) {
        admit(unit);
        reasons.remove(unit);
      }
    }
  }

  AdmissionPass result(
      Collection<QueueState> queues, List<String> timedOutVictims, Optional<Instant> nextPassBy) {
    Map<String, WaitingUnit> waiting = new LinkedHashMap<>();
    queues.stream()
        .sorted(Comparator.comparing(q -> q.name))
        .forEach(
            queue -> {
              int position = 0;
              for (QueuedUnit unit : queue.pending) {
                WaitReason reason = queue.isConfigured() ? reasons.get(unit) : withoutQueue(queue, unit);
                waiting.put(unit.id(), waitingUnit(unit, ++position, reason));
              }
              position = 0;
              for (QueuedUnit unit : queue.backingOff) {
                WaitReason reason = new WaitReason.InBackoff(unit.backoffUntil, unit.attempts);
                waiting.put(unit.id(), waitingUnit(unit, ++position, reason));
              }
            });
    return new AdmissionPass(
        admitted, preemptions, timedOutVictims, waiting, nextPassBy, backfill.reservations());
  }

  /**
   * Why a unit whose queue does not exist waits. A quota it may not charge comes first: no queue
   * would let it, and a queue named after a quota of another namespace is out of its reach too.
   */
  private static WaitReason withoutQueue(QueueState queue, QueuedUnit unit) {
    return unit.spec.mayChargeQuota()
        ? new WaitReason.UnknownQueue(queue.name)
        : new WaitReason.QuotaNotBound(unit.spec.quotaRefusal());
  }

  private static WaitingUnit waitingUnit(QueuedUnit unit, int position, WaitReason reason) {
    return new WaitingUnit(unit.id(), unit.spec.queue(), unit.phase, position, reason);
  }

  /** Admits the unit, or says why it waits. */
  private WaitReason consider(QueueCursor cursor, QueuedUnit unit) {
    if (!unit.spec.mayChargeQuota()) {
      return new WaitReason.QuotaNotBound(unit.spec.quotaRefusal());
    }
    if (!core.accounting().isUsable(unit.quota())) {
      return new WaitReason.UnusableQuota(unit.quota());
    }
    // Never a blocker: waiting behind a gang no node could ever hold would stall its quota for good.
    Optional<String> misfit = core.placement().neverFits(unit.id());
    if (misfit.isPresent()) {
      return new WaitReason.Unplaceable(misfit.get());
    }
    Optional<QueuedUnit> running = cursor.queue.podsToWaitFor();
    if (running.isPresent()) {
      return new WaitReason.AwaitingPodsRunning(running.get().id());
    }
    QueueConfig config = cursor.queue.config;
    boolean firstTier = config.servesFirst(unit.spec.priority());
    if (config.policy() == QueuePolicy.INTELLIGENT && !firstTier && cursor.firstTierWaiting != null) {
      return new WaitReason.BehindFirstTier(cursor.firstTierWaiting, config.priorityThreshold());
    }
    String blocker = cursor.blockers.get(unit.quota());
    WaitReason reason =
        blocker == null
            ? tryAdmit(cursor.queue, unit)
            : config.backfill() ? tryBackfill(cursor.queue, blocker, unit) : new WaitReason.BlockedBehind(blocker);
    if (reason != null && blocker == null && config.blocks(firstTier)) {
      cursor.blockers.put(unit.quota(), unit.id());
      if (config.backfill() && reason instanceof WaitReason.QuotaShortage shortage) {
        Optional<Reservation> reservation = backfill.reserve(unit);
        if (reservation.isPresent()) {
          reason = new WaitReason.QuotaShortage(shortage.result(), reservation.get());
        }
      }
    }
    if (reason != null && firstTier && cursor.firstTierWaiting == null) {
      cursor.firstTierWaiting = unit.id();
    }
    return reason;
  }

  /** Admits a unit behind a blocked one only if that unit's reserved start stays as it is. */
  private WaitReason tryBackfill(QueueState queue, String blocker, QueuedUnit unit) {
    Optional<Reservation> reservation = backfill.reservation(blocker);
    if (reservation.isEmpty()) {
      return new WaitReason.BlockedBehind(blocker);
    }
    if (!backfill.allows(blocker, unit)) {
      return new WaitReason.BehindReservation(reservation.get());
    }
    WaitReason reason = tryAdmit(queue, unit);
    if (reason == null) {
      backfill.admitted(blocker, unit);
    }
    return reason;
  }

  private WaitReason tryAdmit(QueueState queue, QueuedUnit unit) {
    List<String> victims = inFlight.victimsOf(unit.id());
    if (!victims.isEmpty()) {
      return new WaitReason.AwaitingPreemption(victims);
    }
    ResourceVector request = unit.spec.request();
    AdmissionResult result = shortages.find(unit.quota(), request);
    if (result == null) {
      result = ledger.canAdmit(unit.quota(), request);
    }
    if (result.admissible()) {
      admit(unit);
      return null;
    }
    shortages.record(unit.quota(), result);
    victims = preempt(queue, unit, result);
    if (victims.isEmpty()) {
      shortOfQuota.add(unit);
      return new WaitReason.QuotaShortage(result);
    }
    return new WaitReason.AwaitingPreemption(victims);
  }

  private void admit(QueuedUnit unit) {
    core.admit(unit, now);
    admitted.add(unit.id());
    admittedNow.add(unit);
  }

  /**
   * Reclaims lent quota from borrowers when an ancestor blocks the unit; otherwise, if the queue
   * allows it, evicts lower-priority units of the same queue and quota.
   */
  private List<String> preempt(QueueState queue, QueuedUnit unit, AdmissionResult shortage) {
    String quota = unit.quota();
    // Tried first: it is the cheap answer for every later unit of a queue and quota in the pass.
    if (!preemptionTried.add(new QueueQuota(queue.name, quota)) || inFlight.isBusy(quota, core.accounting()::treeOf)) {
      return List.of();
    }
    // Borrowers sit under an ancestor; a shortage at the leaf itself is the leaf's own use.
    if (!shortage.quota().equals(quota)) {
      List<String> victims = VictimSelection.reclaim(ledger, unit, borrowers());
      if (!victims.isEmpty()) {
        String reason =
            "preempted: " + unit.id() + " in quota \"" + quota + "\" reclaims the quota it lent";
        start(unit, victims, reason);
        return victims;
      }
    }
    if (queue.config.preemptionEnabled()) {
      List<String> victims =
          VictimSelection.lowerPriority(ledger, unit, sameQueueCandidates(queue, unit)).stream()
              .map(QueuedUnit::id)
              .toList();
      if (!victims.isEmpty()) {
        String reason =
            "preempted by " + unit.id() + " of higher priority " + unit.spec.priority()
                + " in queue \"" + queue.name + "\"";
        start(unit, victims, reason);
        return victims;
      }
    }
    return List.of();
  }

  private List<QueuedUnit> sameQueueCandidates(QueueState queue, QueuedUnit unit) {
    return core.admittedIn(unit.quota()).stream()
        .filter(v -> v.spec.queue().equals(queue.name))
        .filter(v -> v.isPreemptable() && !inFlight.isVictim(v.id()) && !admittedNow.contains(v))
        .toList();
  }

  private void start(QueuedUnit preemptor, List<String> victims, String reason) {
    inFlight.start(preemptor.id(), preemptor.quota(), victims, now);
    victims.forEach(v -> preemptions.add(new Preemption(v, preemptor.id(), reason)));
    Set<String> taken = new HashSet<>(victims);
    if (borrowers != null) {
      borrowers.removeIf(b -> taken.contains(b.id()));
    }
  }

  /**
   * Units that may hold borrowed quota, collected on first use: admitted before this pass, not
   * already being preempted, in a leaf that uses more than its runtime or with a request its
   * leaf's runtime does not even cover (such as a resource the leaf does not govern). This is a
   * superset of what the reclaim planner accepts; it only keeps the planner's input small.
   */
  private List<AdmittedUnit> borrowers() {
    if (borrowers == null) {
      borrowers = new ArrayList<>();
      for (Collection<QueuedUnit> leafUnits : core.admittedByQuota()) {
        Iterator<QueuedUnit> it = leafUnits.iterator();
        String leaf = it.next().quota();
        if (!core.accounting().isUsable(leaf)) {
          continue;
        }
        ResourceVector runtime = ledger.runtime(leaf);
        boolean overRuntime = !ledger.used(leaf).fitsIn(runtime);
        for (QueuedUnit unit : leafUnits) {
          if ((overRuntime || !unit.spec.request().fitsIn(runtime))
              && unit.isPreemptable()
              && !admittedNow.contains(unit)
              && !inFlight.isVictim(unit.id())) {
            borrowers.add(unit.asAdmitted());
          }
        }
      }
    }
    return borrowers;
  }

  /** Walks a snapshot of a queue's pending units, so admissions can leave the live set. */
  private static final class QueueCursor {
    final QueueState queue;
    final Iterator<QueuedUnit> units;
    /** Block policy and Intelligent's first tier: the first unit of each quota that did not fit. */
    final Map<String, String> blockers = new HashMap<>();
    /** Intelligent policy: the first unit at or above the threshold that waits, if any. */
    String firstTierWaiting;

    QueueCursor(QueueState queue) {
      this.queue = queue;
      this.units = new ArrayList<>(queue.pending).iterator();
    }

    boolean hasNext() {
      return units.hasNext();
    }

    QueuedUnit next() {
      return units.next();
    }
  }

  private record QueueQuota(String queue, String quota) {}
}
