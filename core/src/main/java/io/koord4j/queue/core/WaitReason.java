package io.koord4j.queue.core;

import io.koord4j.quota.AdmissionResult;
import java.time.Instant;
import java.util.List;

/**
 * Why a unit is not admitted yet. Reasons are values: a controller compares them with the last
 * one it wrote and formats {@link #message()} only when the reason changed.
 */
public sealed interface WaitReason {

  /**
   * A sentence for the unit's condition and event. Every kind's wording stands here, side by side,
   * so that the sentences users read stay alike.
   */
  default String message() {
    if (this instanceof QuotaShortage shortage) {
      String shortOf = shortage.result().message();
      return shortage.reservation() == null
          ? shortOf
          : shortOf + "; reserved to start by " + shortage.reservation().start() + " (backfill)";
    } else if (this instanceof Unplaceable unplaceable) {
      return "the gang does not fit even on empty nodes: " + unplaceable.reason();
    } else if (this instanceof BlockedBehind blocked) {
      return "blocked behind " + blocked.unitId() + " (Block policy)";
    } else if (this instanceof BehindReservation behind) {
      return "waiting behind " + behind.reservation().unitId() + ", reserved to start by "
          + behind.reservation().start()
          + " (backfill: only units expected to end by then, or leaving it room, go first)";
    } else if (this instanceof BehindFirstTier behind) {
      return "waiting behind " + behind.unitId() + " (Intelligent policy: units of priority "
          + behind.threshold() + " or more go first)";
    } else if (this instanceof InBackoff backoff) {
      String requeues = backoff.attempt() == 1 ? " requeue" : " requeues";
      return "in backoff until " + backoff.until() + " after " + backoff.attempt() + requeues;
    } else if (this instanceof AwaitingPodsRunning awaiting) {
      return "queue waits for pods of " + awaiting.unitId() + " to run";
    } else if (this instanceof AwaitingPreemption awaiting) {
      return "waiting for preempted " + String.join(", ", awaiting.victims()) + " to release quota";
    } else if (this instanceof UnknownQueue unknown) {
      return "queue \"" + unknown.queue() + "\" does not exist";
    } else if (this instanceof UnusableQuota unusable) {
      return "quota \"" + unusable.quota() + "\" does not exist or is a parent quota";
    } else if (this instanceof QuotaNotBound notBound) {
      return notBound.refusal();
    }
    throw new IllegalStateException("no wording for " + this);
  }

  /**
   * Its quota, or an ancestor, lacks a resource; the result names which and how much. In a
   * backfilling queue the unit may hold a reserved start (null when it holds none).
   */
  record QuotaShortage(AdmissionResult result, Reservation reservation) implements WaitReason {
    public QuotaShortage(AdmissionResult result) {
      this(result, null);
    }
  }

  /**
   * No node of the cluster could hold all the gang's pods even with nothing else running: the
   * scheduler's filters (cordon, taints, nodeSelector, node affinity, resources) refuse them.
   */
  record Unplaceable(String reason) implements WaitReason {}

  /** A Block queue holds it behind an earlier unit of the same quota that does not fit. */
  record BlockedBehind(String unitId) implements WaitReason {}

  /**
   * A backfilling queue holds a start for an earlier unit; this one would end after it and take
   * what that unit needs then.
   */
  record BehindReservation(Reservation reservation) implements WaitReason {}

  /**
   * An Intelligent queue serves units below its priority threshold only while no unit at or
   * above it waits.
   */
  record BehindFirstTier(String unitId, int threshold) implements WaitReason {}

  /** It was requeued and waits out its backoff before it is tried again. */
  record InBackoff(Instant until, int attempt) implements WaitReason {}

  /** The queue waits for pods to run and the pods of {@code unitId} do not run yet. */
  record AwaitingPodsRunning(String unitId) implements WaitReason {}

  /** Units were preempted for this one; it is tried again once they release their quota. */
  record AwaitingPreemption(List<String> victims) implements WaitReason {
    public AwaitingPreemption {
      victims = List.copyOf(victims);
    }
  }

  /** The job names a queue that does not exist. */
  record UnknownQueue(String queue) implements WaitReason {}

  /** The quota is missing, or is a parent quota, which units may not use. */
  record UnusableQuota(String quota) implements WaitReason {}

  /**
   * The unit's namespace is not bound to its quota ({@link UnitSpec#quotaRefusal}, which says
   * why), so it may not charge it however much room is free.
   */
  record QuotaNotBound(String refusal) implements WaitReason {}
}
