package io.koord4j.queue.core;

import io.koord4j.quota.AdmissionResult;
import java.time.Instant;
import java.util.List;

/**
 * Why a unit is not admitted yet. Reasons are values: a controller compares them with the last
 * one it wrote and formats {@link #message()} only when the reason changed.
 */
public sealed interface WaitReason {

  /** A sentence for the unit's condition and event. */
  String message();

  /**
   * Its quota, or an ancestor, lacks a resource; the result names which and how much. In a
   * backfilling queue the unit may hold a reserved start (null when it holds none).
   */
  record QuotaShortage(AdmissionResult result, Reservation reservation) implements WaitReason {
    public QuotaShortage(AdmissionResult result) {
      this(result, null);
    }

    @Override
    public String message() {
      return reservation == null
          ? result.message()
          : result.message() + "; reserved to start by " + reservation.start() + " (backfill)";
    }
  }

  /**
   * No node of the cluster could hold all the gang's pods even with nothing else running: the
   * scheduler's filters (cordon, taints, nodeSelector, node affinity, resources) refuse them.
   */
  record Unplaceable(String reason) implements WaitReason {
    @Override
    public String message() {
      return "the gang does not fit even on empty nodes: " + reason;
    }
  }

  /** A Block queue holds it behind an earlier unit of the same quota that does not fit. */
  record BlockedBehind(String unitId) implements WaitReason {
    @Override
    public String message() {
      return "blocked behind " + unitId + " (Block policy)";
    }
  }

  /**
   * A backfilling queue holds a start for an earlier unit; this one would end after it and take
   * what that unit needs then.
   */
  record BehindReservation(Reservation reservation) implements WaitReason {
    @Override
    public String message() {
      return "waiting behind " + reservation.unitId() + ", reserved to start by " + reservation.start()
          + " (backfill: only units expected to end by then, or leaving it room, go first)";
    }
  }

  /**
   * An Intelligent queue serves units below its priority threshold only while no unit at or
   * above it waits.
   */
  record BehindFirstTier(String unitId, int threshold) implements WaitReason {
    @Override
    public String message() {
      return "waiting behind " + unitId + " (Intelligent policy: units of priority " + threshold
          + " or more go first)";
    }
  }

  record InBackoff(Instant until, int attempt) implements WaitReason {
    @Override
    public String message() {
      String requeues = attempt == 1 ? " requeue" : " requeues";
      return "in backoff until " + until + " after " + attempt + requeues;
    }
  }

  /** The queue waits for pods to run and the pods of {@code unitId} do not run yet. */
  record AwaitingPodsRunning(String unitId) implements WaitReason {
    @Override
    public String message() {
      return "queue waits for pods of " + unitId + " to run";
    }
  }

  /** Units were preempted for this one; it is tried again once they release their quota. */
  record AwaitingPreemption(List<String> victims) implements WaitReason {
    public AwaitingPreemption {
      victims = List.copyOf(victims);
    }

    @Override
    public String message() {
      return "waiting for preempted " + String.join(", ", victims) + " to release quota";
    }
  }

  record UnknownQueue(String queue) implements WaitReason {
    @Override
    public String message() {
      return "queue \"" + queue + "\" does not exist";
    }
  }

  /** The quota is missing, or is a parent quota, which units may not use. */
  record UnusableQuota(String quota) implements WaitReason {
    @Override
    public String message() {
      return "quota \"" + quota + "\" does not exist or is a parent quota";
    }
  }
}
