package io.koord4j.manager.admission;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.PodSetAdmission;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.api.queue.RequeueState;
import io.koord4j.jobs.PodRequests;
import io.koord4j.manager.support.Json;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.queue.core.UnitPhase;
import io.koord4j.queue.core.UnitStatus;
import io.koord4j.queue.core.WaitReason;
import io.koord4j.queue.core.WaitingUnit;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The status a QueueUnit should have after a decision of the admission core. Pure: each method
 * returns a new status built from the current one, touching only the fields the decision owns, so
 * that an unchanged decision yields an equal status and nothing is written.
 */
public final class UnitStatuses {
  private UnitStatuses() {}

  /** Condition reason of a unit that waits; the message says for what. */
  static final String REASON_PENDING = "Pending";

  static final String REASON_ADMITTED = "Admitted";
  static final String REASON_PODS_READY = "PodsReady";

  static final String REASON_CHECKS_PENDING = "AdmissionChecksPending";
  static final String REASON_CHECK_REJECTED = "AdmissionCheckRejected";
  static final String REASON_CHECK_RETRY = "AdmissionCheck";

  public static QueueUnitStatus admitted(QueueUnit unit, String quota, Instant now) {
    QueueUnitStatus status = copy(unit.getStatus());
    status.setPhase(QueueUnitPhase.DEQUEUED);
    status.setPositionInQueue(null);
    status.setMessage("admitted by quota \"" + quota + "\"");
    status.setLastAllocateTime(now.toString());
    endBackoff(status);
    status.setAdmissions(admissions(unit.getSpec().getPodSet()));
    String message = status.getMessage();
    List<Condition> conditions = status.getConditions();
    conditions = set(conditions, QueueUnitConditions.QUOTA_RESERVED, true, REASON_ADMITTED, message, now);
    conditions = set(conditions, QueueUnitConditions.ADMITTED, true, REASON_ADMITTED, message, now);
    if (find(conditions, QueueUnitConditions.EVICTED) != null) {
      conditions = set(conditions, QueueUnitConditions.EVICTED, false, REASON_ADMITTED, message, now);
    }
    status.setConditions(conditions);
    return status;
  }

  /**
   * A unit whose quota is reserved but whose queue names admission checks: its job stays
   * suspended in phase Reserved until every check is Ready ({@link #checked}). Every check starts
   * Pending.
   */
  public static QueueUnitStatus reserved(QueueUnit unit, String quota, List<String> checks, Instant now) {
    QueueUnitStatus status = admitted(unit, quota, now);
    status.setPhase(QueueUnitPhase.RESERVED);
    status.setMessage("quota \"" + quota + "\" reserved; waiting for admission checks " + String.join(", ", checks));
    status.setAdmissionChecks(checks.stream().map(name -> pendingCheck(name, now)).toList());
    status.setConditions(
        set(status.getConditions(), QueueUnitConditions.ADMITTED, false, REASON_CHECKS_PENDING,
            status.getMessage(), now));
    return status;
  }

  /**
   * A Reserved unit after the checks the manager runs answered ({@code decided}, merged by name
   * into the unit's entries): any Rejected ends the unit (phase Failed, quota released, the job
   * never started); any Retry releases the quota and backs off; all Ready starts the job; else it
   * stays Reserved.
   */
  public static QueueUnitStatus checked(QueueUnit unit, List<AdmissionCheckState> decided, Instant now) {
    QueueUnitStatus status = copy(unit.getStatus());
    List<AdmissionCheckState> entries = new ArrayList<>(orEmpty(status.getAdmissionChecks()));
    for (AdmissionCheckState entry : decided) {
      entries.removeIf(old -> old.getName().equals(entry.getName()));
      entries.add(entry);
    }
    status.setAdmissionChecks(entries);
    Optional<AdmissionCheckState> rejected = inState(entries, AdmissionCheckState.REJECTED);
    Optional<AdmissionCheckState> retry = inState(entries, AdmissionCheckState.RETRY);
    if (rejected.isPresent()) {
      release(status, QueueUnitPhase.FAILED, REASON_CHECK_REJECTED, QueueUnitConditions.REASON_DEACTIVATED,
          "admission check " + rejected.get().getName() + " rejected the unit: " + rejected.get().getMessage(), now);
    } else if (retry.isPresent()) {
      release(status, QueueUnitPhase.TIMEOUT_BACKOFF, REASON_CHECK_RETRY, REASON_CHECK_RETRY,
          "admission check " + retry.get().getName() + " asks to retry later: " + retry.get().getMessage(), now);
    } else if (entries.stream().allMatch(entry -> AdmissionCheckState.READY.equals(entry.getState()))) {
      status.setPhase(QueueUnitPhase.DEQUEUED);
      status.setMessage("admitted: quota reserved and every admission check Ready");
      status.setConditions(set(status.getConditions(), QueueUnitConditions.ADMITTED, true, REASON_ADMITTED,
          status.getMessage(), now));
    }
    return status;
  }

  /** The node selectors of the Ready checks' podSetUpdates, merged: where the checks placed the gang. */
  public static Map<String, String> checkedNodeSelector(QueueUnitStatus status) {
    Map<String, String> selector = new TreeMap<>();
    orEmpty(status == null ? null : status.getAdmissionChecks()).stream()
        .filter(check -> AdmissionCheckState.READY.equals(check.getState()))
        .flatMap(check -> orEmpty(check.getPodSetUpdates()).stream())
        .filter(update -> update.getNodeSelector() != null)
        .forEach(update -> selector.putAll(update.getNodeSelector()));
    return selector;
  }

  /** Reserved: its quota is held, its job waits for the admission checks. */
  public static boolean isReserved(QueueUnitStatus status) {
    return status != null && QueueUnitPhase.RESERVED.equals(status.getPhase());
  }

  /** The quota is given back and the unit evicted, as Kueue does on Retry and Rejected. */
  private static void release(
      QueueUnitStatus status, String phase, String reason, String evictedReason, String message, Instant now) {
    status.setPhase(phase);
    status.setMessage(message);
    status.setAdmissions(null);
    endBackoff(status);
    List<Condition> conditions = status.getConditions();
    conditions = set(conditions, QueueUnitConditions.QUOTA_RESERVED, false, reason, message, now);
    conditions = set(conditions, QueueUnitConditions.ADMITTED, false, reason, message, now);
    conditions = set(conditions, QueueUnitConditions.EVICTED, true, evictedReason, message, now);
    status.setConditions(conditions);
  }

  private static Optional<AdmissionCheckState> inState(List<AdmissionCheckState> entries, String state) {
    return entries.stream().filter(entry -> state.equals(entry.getState())).findFirst();
  }

  private static AdmissionCheckState pendingCheck(String name, Instant now) {
    AdmissionCheckState check = new AdmissionCheckState();
    check.setName(name);
    check.setState(AdmissionCheckState.PENDING);
    check.setMessage("");
    check.setLastTransitionTime(now.truncatedTo(ChronoUnit.SECONDS).toString());
    return check;
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }

  /**
   * An evicted unit that still holds its quota: its job is to be suspended, and only when the job
   * is seen stopped is the quota released ({@link #released}). Until then the unit is neither
   * admitted nor backing off.
   */
  public static QueueUnitStatus preempted(QueueUnit unit, String reason, Instant now) {
    return evicted(unit, QueueUnitConditions.REASON_PREEMPTED, reason, now);
  }

  /**
   * As {@link #preempted}, for a job that changed its pod counts or requests after its quota was
   * reserved: it is suspended and requeued for what it now asks; {@code change} names the change.
   */
  public static QueueUnitStatus jobChanged(QueueUnit unit, String change, Instant now) {
    return evicted(
        unit, QueueUnitConditions.REASON_JOB_CHANGED,
        "the job changed after its quota was reserved (" + change + "); it is suspended and requeued",
        now);
  }

  /**
   * As {@link #preempted}, for a unit whose pods were not all ready in time: its requeue is stored
   * with the eviction, count and time, so that a restarted manager backs it off the same.
   */
  public static QueueUnitStatus podsReadyTimedOut(
      QueueUnit unit, int requeues, Instant requeueAt, String message, Instant now) {
    QueueUnitStatus status = evicted(unit, QueueUnitConditions.REASON_PODS_READY_TIMEOUT, message, now);
    RequeueState requeue = new RequeueState();
    requeue.setCount(requeues);
    requeue.setRequeueAt(requeueAt.toString());
    status.setRequeueState(requeue);
    status.setAttempts((long) requeues);
    return status;
  }

  /**
   * As {@link #preempted}, for a unit that is deactivated: once its job stopped it leaves its
   * queue until someone sets it active again, and its requeue count then starts afresh.
   */
  public static QueueUnitStatus deactivated(QueueUnit unit, String reason, String message, Instant now) {
    QueueUnitStatus status = evicted(unit, reason, message, now);
    status.setPhase(QueueUnitPhase.ENQUEUED);
    status.setPositionInQueue(null);
    status.setRequeueState(null);
    return status;
  }

  /** Every pod of the unit's gang is ready: the pods-ready timeout no longer applies to it. */
  public static QueueUnitStatus podsReady(QueueUnit unit, Instant now) {
    QueueUnitStatus status = copy(unit.getStatus());
    status.setConditions(
        set(status.getConditions(), QueueUnitConditions.PODS_READY, true, REASON_PODS_READY,
            "every pod of the gang is ready", now));
    return status;
  }

  private static QueueUnitStatus evicted(QueueUnit unit, String reason, String message, Instant now) {
    QueueUnitStatus status = copy(unit.getStatus());
    status.setPhase(QueueUnitPhase.TIMEOUT_BACKOFF);
    status.setMessage(message);
    endBackoff(status);
    List<Condition> conditions = status.getConditions();
    conditions =
        set(conditions, QueueUnitConditions.QUOTA_RESERVED, true, reason,
            "quota held until the job stops", now);
    conditions = set(conditions, QueueUnitConditions.ADMITTED, false, reason, message, now);
    conditions = set(conditions, QueueUnitConditions.EVICTED, true, reason, message, now);
    // The next admission's pods must be ready again.
    if (find(conditions, QueueUnitConditions.PODS_READY) != null) {
      conditions = set(conditions, QueueUnitConditions.PODS_READY, false, reason, message, now);
    }
    status.setConditions(conditions);
    return status;
  }

  /** An evicted unit whose job stopped: its quota is free, and the queue backs it off. */
  public static QueueUnitStatus released(QueueUnitStatus current, Instant now) {
    QueueUnitStatus status = copy(current);
    status.setAdmissions(null);
    status.setConditions(
        set(status.getConditions(), QueueUnitConditions.QUOTA_RESERVED, false,
            QueueUnitConditions.REASON_PREEMPTED, "the job stopped; its quota is released", now));
    return status;
  }

  /**
   * A unit that waits; its message and QuotaReserved condition say why (quota, resource,
   * amounts), and an Enqueued unit carries its position in the queue.
   */
  public static QueueUnitStatus waiting(
      QueueUnit unit, WaitingUnit waiting, UnitStatus core, Instant now) {
    QueueUnitStatus status = copy(unit.getStatus());
    if (waiting.phase() == UnitPhase.BACKOFF) {
      backOff(status, core);
      status.setPositionInQueue(null);
    } else {
      status.setPhase(QueueUnitPhase.ENQUEUED);
      status.setPositionInQueue(waiting.position());
    }
    String message = waiting.reason().message();
    status.setMessage(message);
    status.setConditions(
        set(status.getConditions(), QueueUnitConditions.QUOTA_RESERVED, false,
            reasonOf(waiting.reason()), message, now));
    return status;
  }

  /**
   * Whether {@code desired} differs from {@code current} in more than what merely explains a
   * wait: the texts (the status message and the QuotaReserved condition's), whose amounts move
   * with every admission elsewhere, and a place deep in the queue that moved only a little
   * ({@link #positionMovedMuch}). Each admission at the head moves every unit behind it up by
   * one; rewriting them all would cost a write per waiting unit per admission.
   */
  public static boolean changesMoreThanItsWaitMessage(
      QueueUnitStatus current, QueueUnitStatus desired) {
    QueueUnitStatus before = withoutWaitMessage(current);
    QueueUnitStatus after = withoutWaitMessage(desired);
    if (!positionMovedMuch(before.getPositionInQueue(), after.getPositionInQueue())) {
      after.setPositionInQueue(before.getPositionInQueue());
    }
    return !Json.same(before, after);
  }

  /** Places up to here are kept exact: people watch the head of a queue closely. */
  static final int EXACT_POSITIONS = 10;

  /**
   * A place is rewritten when it is at or near the head (either side of {@link
   * #EXACT_POSITIONS}), appears or goes, or moved by a quarter or more of the recorded place: a
   * unit that walks from place N to the head is rewritten about log(N) + 10 times, not N times.
   */
  static boolean positionMovedMuch(Integer recorded, Integer now) {
    if (recorded == null || now == null) {
      return !Objects.equals(recorded, now);
    }
    return recorded <= EXACT_POSITIONS || now <= EXACT_POSITIONS
        ? !recorded.equals(now)
        : Math.abs(now - recorded) * 4 >= recorded;
  }

  private static QueueUnitStatus withoutWaitMessage(QueueUnitStatus status) {
    QueueUnitStatus stripped = copy(status);
    stripped.setMessage(null);
    stripped.setLastUpdateTime(null);
    Condition reserved = find(stripped.getConditions(), QueueUnitConditions.QUOTA_RESERVED);
    if (reserved != null) {
      reserved.setMessage(null);
    }
    return stripped;
  }

  /** {@code QuotaShortage}, {@code BlockedBehind}, ...: the kind of wait, for the condition. */
  static String reasonOf(WaitReason reason) {
    return reason.getClass().getSimpleName();
  }

  /**
   * The kind of wait, and for a shortage which quota and resource: a new event is due when this
   * changes, not when only the amounts do.
   */
  /**
   * Whether {@code desired} waits as {@code current} says it does: the same phase and the same
   * reason in its QuotaReserved condition.
   */
  static boolean sameWait(QueueUnitStatus current, QueueUnitStatus desired) {
    if (current == null || !Objects.equals(current.getPhase(), desired.getPhase())) {
      return false;
    }
    Condition before = find(current.getConditions(), QueueUnitConditions.QUOTA_RESERVED);
    Condition after = find(desired.getConditions(), QueueUnitConditions.QUOTA_RESERVED);
    return before != null && after != null
        && Objects.equals(before.getStatus(), after.getStatus())
        && Objects.equals(before.getReason(), after.getReason());
  }

  static String waitKind(WaitReason reason) {
    return reason instanceof WaitReason.QuotaShortage shortage
        ? reasonOf(reason) + ":" + shortage.result().quota() + ":" + shortage.result().resource()
        : reasonOf(reason);
  }

  public static boolean isAdmitted(QueueUnitStatus status) {
    String phase = status == null ? null : status.getPhase();
    return QueueUnitPhase.DEQUEUED.equals(phase) || QueueUnitPhase.RUNNING.equals(phase);
  }

  /** Whether the status says the unit holds its quota: admitted, reserved, or awaiting release. */
  public static boolean holdsQuota(QueueUnitStatus status) {
    return isAdmitted(status) || isReserved(status) || awaitsRelease(status);
  }

  /** Evicted, but its job has not been seen stopped yet: the unit still holds its quota. */
  public static boolean awaitsRelease(QueueUnitStatus status) {
    return status != null
        && !isAdmitted(status)
        && !isFinished(status)
        && isTrue(status, QueueUnitConditions.EVICTED)
        && isTrue(status, QueueUnitConditions.QUOTA_RESERVED);
  }

  /**
   * Evicted and released, but not yet given a backoff: the decision the queue owes such a unit,
   * also after a restart between the release and the backoff's write.
   */
  public static boolean awaitsBackoff(QueueUnitStatus status) {
    return status != null
        && QueueUnitPhase.TIMEOUT_BACKOFF.equals(status.getPhase())
        && !awaitsRelease(status)
        && requeueAt(status) == null;
  }

  /** How many times the unit was requeued, as recorded in {@code status.requeueState}. */
  public static int requeues(QueueUnitStatus status) {
    RequeueState requeue = status == null ? null : status.getRequeueState();
    return requeue == null || requeue.getCount() == null ? 0 : requeue.getCount();
  }

  /** The end of the backoff the status records, if the unit backs off; else null. */
  public static Instant requeueAt(QueueUnitStatus status) {
    RequeueState requeue = status == null ? null : status.getRequeueState();
    return QueueUnitPhase.TIMEOUT_BACKOFF.equals(status == null ? null : status.getPhase())
            && requeue != null
            && requeue.getRequeueAt() != null
        ? Instant.parse(requeue.getRequeueAt())
        : null;
  }

  public static boolean isFinished(QueueUnitStatus status) {
    String phase = status == null ? null : status.getPhase();
    return QueueUnitPhase.SUCCEED.equals(phase) || QueueUnitPhase.FAILED.equals(phase);
  }

  /**
   * Sets a condition; its transition time moves only when its status flips, as Kubernetes'
   * conditions require.
   */
  public static List<Condition> set(
      List<Condition> conditions, String type, boolean value, String reason, String message,
      Instant now) {
    List<Condition> result = new ArrayList<>(conditions == null ? List.of() : conditions);
    Condition old = find(result, type);
    String status = value ? "True" : "False";
    String since =
        old != null && status.equals(old.getStatus())
            ? old.getLastTransitionTime()
            : now.truncatedTo(ChronoUnit.SECONDS).toString();
    Condition updated =
        new ConditionBuilder()
            .withType(type)
            .withStatus(status)
            .withReason(reason)
            .withMessage(message)
            .withLastTransitionTime(since)
            .build();
    if (old == null) {
      result.add(updated);
    } else {
      result.set(result.indexOf(old), updated);
    }
    return result;
  }

  static Condition find(List<Condition> conditions, String type) {
    return conditions == null
        ? null
        : conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }

  static boolean isTrue(QueueUnitStatus status, String type) {
    Condition condition = find(status.getConditions(), type);
    return condition != null && "True".equals(condition.getStatus());
  }

  /** The requeue count stays: the next backoff after this admission grows from it. */
  private static void endBackoff(QueueUnitStatus status) {
    if (status.getRequeueState() != null) {
      status.getRequeueState().setRequeueAt(null);
    }
  }

  private static void backOff(QueueUnitStatus status, UnitStatus core) {
    status.setPhase(QueueUnitPhase.TIMEOUT_BACKOFF);
    RequeueState requeue = new RequeueState();
    requeue.setCount(core.attempts());
    requeue.setRequeueAt(Objects.toString(core.backoffUntil(), null));
    status.setRequeueState(requeue);
    status.setAttempts((long) core.attempts());
  }

  private static List<PodSetAdmission> admissions(List<PodSet> podSets) {
    List<PodSetAdmission> admissions = new ArrayList<>();
    for (PodSet podSet : podSets == null ? List.<PodSet>of() : podSets) {
      int count = podSet.getCount() == null ? 1 : podSet.getCount();
      PodSetAdmission admission = new PodSetAdmission();
      admission.setName(podSet.getName());
      admission.setReplicas((long) count);
      admission.setResources(
          ResourceQuantities.toQuantities(
              ResourceQuantities.fromAmounts(
                  ResourceQuantities.times(
                      PodRequests.of(podSet.getTemplate().getSpec(), "podSet.template.spec"),
                      count))));
      admissions.add(admission);
    }
    return admissions;
  }

  private static QueueUnitStatus copy(QueueUnitStatus status) {
    return status == null ? new QueueUnitStatus() : Json.copy(status);
  }
}
