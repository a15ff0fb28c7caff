package io.koord4j.queue.core;

import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.random.RandomGenerator;
import java.util.stream.Stream;

/**
 * The queueing and admission core: queues, units and elastic quota in memory, and a
 * {@link #pass} that decides which units to admit and which to preempt.
 *
 * <p>Single-threaded: one owner (the controller's admission loop) feeds it informer events and
 * runs passes. Every input is idempotent, so the controller can replay the cluster's state after
 * a restart or on informer resync without counting quota twice.
 *
 * <h2>Protocol with the controller</h2>
 *
 * <ol>
 *   <li>Feed {@link #upsertQueue}, {@link #upsertQuota}, {@link #setClusterTotal} and
 *       {@link #upsertUnit}; on restart also {@link #markAdmitted} (and {@link #markPodsRunning})
 *       for units the cluster shows as admitted, {@link #markPreempted} for evicted units that
 *       still hold their quota, and {@link #restoreRequeues} for what the cluster recorded of
 *       each unit's requeues. Set a {@link #setPlacementCheck} so that a gang no node could ever
 *       hold waits rather than taking quota.
 *   <li>Run {@link #pass} when something changed or at {@link AdmissionPass#nextPassBy}.
 *   <li>Admitted units are counted at once. The controller dequeues and resumes their jobs; if
 *       it cannot, it calls {@link #requeue} (back off and retry) or {@link #removeUnit}.
 *   <li>Preemptions are decisions only: the victims keep their quota. The controller suspends
 *       each victim's job, then confirms with {@link #requeue}, which releases the quota and puts
 *       the victim into backoff. Until then the victim is never chosen again and its quota starts
 *       no further preemptions.
 *   <li>When a unit's pods run, {@link #markPodsRunning}; when its job ends, {@link
 *       #markFinished}; when the QueueUnit is deleted, {@link #removeUnit}.
 * </ol>
 */
public final class AdmissionCore {

  /** How long a preemption victim may take to stop before preemption goes on without it. */
  public static final Duration VICTIM_TIMEOUT = PreemptionsInFlight.TIMEOUT;

  private final RandomGenerator random;
  private final Map<String, QueuedUnit> units = new HashMap<>();
  private final Map<String, QueueState> queues = new HashMap<>();
  private final TreeSet<QueuedUnit> backoffTimeline = new TreeSet<>(QueuedUnit.BACKOFF_ORDER);
  private final Map<String, Set<QueuedUnit>> admittedByQuota = new HashMap<>();
  private final QuotaAccounting accounting = new QuotaAccounting();
  private final PreemptionsInFlight preemptions = new PreemptionsInFlight();
  private PlacementCheck placement = PlacementCheck.ANYWHERE;
  private long passes;

  /** @param random source of backoff jitter; seed it in tests */
  public AdmissionCore(RandomGenerator random) {
    this.random = random;
  }

  // ---- queues and quotas

  public void upsertQueue(QueueConfig config) {
    queue(config.name()).config = config;
  }

  /** Units of a removed queue stay and wait with {@link WaitReason.UnknownQueue}. */
  public void removeQueue(String name) {
    QueueState queue = queues.get(name);
    if (queue != null) {
      queue.config = null;
      dropIfUnused(queue);
    }
  }

  public void upsertQuota(QuotaSpec spec) {
    accounting.upsert(spec);
  }

  /**
   * A quota removed while units admitted under it still hold their request stays charged to its
   * ancestors, admitting nothing more, until those units release it.
   */
  public void removeQuota(String name) {
    accounting.remove(name, admittedByQuota.keySet());
  }

  /** Replaces every quota spec at once; a removed quota is kept as {@link #removeQuota} says. */
  public void setQuotas(Collection<QuotaSpec> specs) {
    accounting.replaceAll(specs, admittedByQuota.keySet());
  }

  /** What the root quota shares: cluster allocatable minus what the system and default use. */
  public void setClusterTotal(ResourceVector total) {
    accounting.setClusterTotal(total);
  }

  /** Why the current quota specs do not form a valid tree; empty when they do. */
  public List<String> quotaViolations() {
    refreshQuotas();
    return accounting.violations();
  }

  public ResourceVector used(String quota) {
    refreshQuotas();
    return accounting.ledger().used(quota);
  }

  public ResourceVector runtime(String quota) {
    refreshQuotas();
    return accounting.ledger().runtime(quota);
  }

  /** What the quota asks of its parent: pending plus used, capped at max (its limited request). */
  public ResourceVector request(String quota) {
    refreshQuotas();
    return accounting.ledger().limitedRequest(quota);
  }

  /** Who judges whether a unit's gang could ever be placed on the nodes; by default every gang can. */
  public void setPlacementCheck(PlacementCheck check) {
    placement = Objects.requireNonNull(check, "check");
  }

  // ---- pods that no unit owns

  /**
   * Charges a pod that no unit owns to its quota, or updates its charge. Such pods are not
   * admitted here, but their use counts against the quota, so the tree never lends what they
   * hold.
   *
   * @return whether the charge changed, so that a pass may admit differently
   */
  public boolean upsertPod(String uid, ChargedPod pod) {
    refreshQuotas();
    return accounting.upsertPod(uid, pod);
  }

  /**
   * Releases a pod's charge: it ended, was deleted, or a unit now owns it.
   *
   * @return whether the pod was charged
   */
  public boolean removePod(String uid) {
    refreshQuotas();
    return accounting.removePod(uid);
  }

  // ---- units

  /**
   * Adds a pending unit, or updates one in whatever phase it is; an admitted unit's quota moves
   * with its new request. A finished unit keeps its phase.
   */
  public void upsertUnit(UnitSpec spec) {
    QueuedUnit unit = units.get(spec.id());
    if (unit == null) {
      unit = new QueuedUnit(spec);
      units.put(spec.id(), unit);
      enter(unit);
    } else if (!unit.spec.equals(spec)) {
      // An admitted unit stays charged to a removed quota until it releases it.
      UnitSpec next =
          unit.phase == UnitPhase.ADMITTED && accounting.isRetired(unit.quota())
              ? spec.withQuota(unit.quota())
              : spec;
      QueuedUnit changed = unit;
      change(unit, () -> changed.spec = next);
    }
  }

  /** Forgets a unit; whatever quota it held is released. Unknown ids are ignored. */
  public void removeUnit(String id) {
    QueuedUnit unit = units.remove(id);
    if (unit != null) {
      leave(unit);
      preemptions.settle(id);
    }
  }

  /**
   * Records that a unit is admitted, as on restart when the cluster shows it dequeued. Idempotent:
   * an admitted unit stays as it is, so its quota is never counted twice.
   */
  public void markAdmitted(String id, Instant admittedAt) {
    Objects.requireNonNull(admittedAt, "admittedAt");
    QueuedUnit unit = require(id);
    if (unit.isWaiting()) {
      admit(unit, admittedAt);
    }
  }

  /**
   * Records that a unit was evicted but still holds its quota, as on restart when the cluster
   * shows an eviction its job has not confirmed yet: the unit counts as admitted and is a victim
   * already, so it is not chosen again. Its release is confirmed with {@link #requeue}.
   */
  public void markPreempted(String id, Instant admittedAt) {
    markAdmitted(id, admittedAt);
    preemptions.adopt(id, require(id).quota());
  }

  /**
   * Replays what the cluster recorded of a unit's requeues ({@code status.requeueState}), as on
   * restart: the unit counts {@code attempts} requeues, and a waiting unit backs off until {@code
   * requeueAt} if one is given. A count not above the core's own is ignored, so a record written
   * before a later requeue never undoes it; replaying the same record twice changes nothing.
   */
  public void restoreRequeues(String id, int attempts, Instant requeueAt) {
    QueuedUnit unit = require(id);
    if (attempts <= unit.attempts || unit.phase == UnitPhase.FINISHED) {
      return;
    }
    if (unit.isWaiting() && requeueAt != null) {
      change(
          unit,
          () -> {
            unit.phase = UnitPhase.BACKOFF;
            unit.backoffUntil = requeueAt;
          });
    }
    unit.attempts = attempts;
  }

  /**
   * The unit's job stopped, ended or is gone, but its pods still hold their resources (they
   * terminate): its request counts as used, as if admitted, until {@link #requeue}, {@link
   * #markFinished} or {@link #removeUnit} says the pods are gone. It is never chosen as a victim,
   * and a queue waiting for pods to run does not wait for it.
   */
  public void holdUntilReleased(String id, Instant since) {
    QueuedUnit unit = require(id);
    if (unit.phase == UnitPhase.FINISHED) {
      return;
    }
    if (unit.isWaiting()) {
      admit(unit, since);
    }
    unit.releasing = true;
    markPodsRunning(id);
  }

  public void markPodsRunning(String id) {
    QueuedUnit unit = require(id);
    if (unit.phase == UnitPhase.ADMITTED) {
      unit.podsRunning = true;
      queue(unit.spec.queue()).awaitingPods.remove(unit);
    }
  }

  /** The unit's job ended: its quota is released. Idempotent. */
  public void markFinished(String id) {
    QueuedUnit unit = require(id);
    if (unit.phase != UnitPhase.FINISHED) {
      change(unit, () -> unit.phase = UnitPhase.FINISHED);
      preemptions.settle(id);
    }
  }

  /**
   * Releases a unit's quota, if admitted, and backs it off: after a confirmed preemption, a
   * failed admission check, or pods that did not start in time. Each call counts one attempt.
   */
  public void requeue(String id, Instant now) {
    QueuedUnit unit = require(id);
    if (unit.phase == UnitPhase.FINISHED) {
      return;
    }
    Backoff backoff =
        Optional.ofNullable(queue(unit.spec.queue()).config)
            .map(QueueConfig::backoff)
            .orElse(Backoff.DEFAULT);
    int attempt = unit.attempts + 1;
    backOff(unit, attempt, now.plus(backoff.delay(attempt, random)));
  }

  /**
   * As {@link #requeue}, until a time decided and recorded with its count already (after a
   * pods-ready timeout, see {@link RunLimits}): the count is the one {@link #restoreRequeues}
   * replayed, and the delay is not drawn again.
   */
  public void requeueUntil(String id, Instant until) {
    QueuedUnit unit = require(id);
    if (unit.phase != UnitPhase.FINISHED) {
      backOff(unit, unit.attempts, until);
    }
  }

  private void backOff(QueuedUnit unit, int attempts, Instant until) {
    change(
        unit,
        () -> {
          unit.attempts = attempts;
          unit.phase = UnitPhase.BACKOFF;
          unit.backoffUntil = until;
          unit.admittedAt = null;
          unit.podsRunning = false;
        });
    preemptions.settle(unit.spec.id());
  }

  public Optional<UnitStatus> status(String id) {
    return Optional.ofNullable(units.get(id)).map(u -> u.status(preemptions.isVictim(id)));
  }

  // ---- the pass

  /** Decides admissions and preemptions for everything waiting at {@code now}. */
  public AdmissionPass pass(Instant now) {
    endExpiredBackoffs(now);
    accounting.pruneRetired(admittedByQuota.keySet());
    refreshQuotas();
    List<String> timedOut = preemptions.expire(now);
    PassRun run = new PassRun(this, now);
    queueLevels().forEach(run::serve);
    run.lendIdle();
    return run.result(queues.values(), timedOut, nextPassBy());
  }

  /** Configured queues by descending priority; equal ones rotate so none is always first. */
  private List<List<QueueState>> queueLevels() {
    Map<Integer, List<QueueState>> byPriority = new TreeMap<>(Comparator.reverseOrder());
    queues.values().stream()
        .filter(QueueState::isConfigured)
        .sorted(Comparator.comparing(q -> q.name))
        .forEach(
            q -> byPriority.computeIfAbsent(q.config.priority(), p -> new ArrayList<>()).add(q));
    long turn = passes++;
    List<List<QueueState>> levels = new ArrayList<>();
    for (List<QueueState> level : byPriority.values()) {
      Collections.rotate(level, (int) -(turn % level.size()));
      levels.add(level);
    }
    return levels;
  }

  private void endExpiredBackoffs(Instant now) {
    while (!backoffTimeline.isEmpty() && !backoffTimeline.first().backoffUntil.isAfter(now)) {
      // Backing off and pending both count as demand: the ledger is left alone.
      QueuedUnit unit = backoffTimeline.first();
      unindex(unit);
      unit.phase = UnitPhase.PENDING;
      index(unit);
    }
  }

  /** The earliest end of a backoff or of a victim's time to stop. */
  private Optional<Instant> nextPassBy() {
    Optional<Instant> backoff =
        backoffTimeline.isEmpty()
            ? Optional.empty()
            : Optional.of(backoffTimeline.first().backoffUntil);
    return Stream.of(backoff, preemptions.nextTimeout())
        .flatMap(Optional::stream)
        .min(Instant::compareTo);
  }

  // ---- used by a pass

  QuotaAccounting accounting() {
    return accounting;
  }

  PreemptionsInFlight preemptions() {
    return preemptions;
  }

  PlacementCheck placement() {
    return placement;
  }

  QueuedUnit unit(String id) {
    return units.get(id);
  }

  Collection<QueuedUnit> admittedIn(String quota) {
    return admittedByQuota.getOrDefault(quota, Set.of());
  }

  Collection<Set<QueuedUnit>> admittedByQuota() {
    return admittedByQuota.values();
  }

  /** Admits a waiting unit: its request moves from demand to used; runtimes do not change. */
  void admit(QueuedUnit unit, Instant at) {
    unindex(unit);
    accounting.admit(unit);
    unit.phase = UnitPhase.ADMITTED;
    unit.admittedAt = at;
    unit.podsRunning = false;
    unit.releasing = false;
    index(unit);
  }

  // ---- bookkeeping

  private void refreshQuotas() {
    accounting.refresh(units.values());
  }

  private QueuedUnit require(String id) {
    QueuedUnit unit = units.get(id);
    if (unit == null) {
      throw new IllegalArgumentException("unknown unit " + id);
    }
    return unit;
  }

  /** Applies a change to a unit's spec or phase, keeping the indexes and the ledger in step. */
  private void change(QueuedUnit unit, Runnable mutation) {
    leave(unit);
    mutation.run();
    enter(unit);
  }

  private void enter(QueuedUnit unit) {
    accounting.count(unit);
    index(unit);
  }

  private void leave(QueuedUnit unit) {
    unindex(unit);
    accounting.uncount(unit);
  }

  private void index(QueuedUnit unit) {
    indexesOf(unit).forEach(index -> index.add(unit));
  }

  private void unindex(QueuedUnit unit) {
    indexesOf(unit).forEach(index -> index.remove(unit));
    admittedByQuota.computeIfPresent(unit.quota(), (quota, admitted) -> admitted.isEmpty() ? null : admitted);
    dropIfUnused(queue(unit.spec.queue()));
  }

  /** The indexes that list a unit in its phase; index and unindex must agree on them. */
  private List<Collection<QueuedUnit>> indexesOf(QueuedUnit unit) {
    QueueState queue = queue(unit.spec.queue());
    return switch (unit.phase) {
      case PENDING -> List.of(queue.pending);
      case BACKOFF -> List.of(queue.backingOff, backoffTimeline);
      case ADMITTED -> {
        Set<QueuedUnit> admitted = admittedByQuota.computeIfAbsent(unit.quota(), q -> new LinkedHashSet<>());
        yield unit.podsRunning ? List.of(admitted) : List.of(admitted, queue.awaitingPods);
      }
      case FINISHED -> List.of();
    };
  }

  private QueueState queue(String name) {
    return queues.computeIfAbsent(name, QueueState::new);
  }

  private void dropIfUnused(QueueState queue) {
    if (queue.isUnused()) {
      queues.remove(queue.name);
    }
  }
}
