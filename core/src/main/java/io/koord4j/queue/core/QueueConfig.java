package io.koord4j.queue.core;

import java.util.Objects;

/**
 * One Queue as the admission core sees it.
 *
 * @param name what identifies the queue; Queue objects are namespaced, so the manager passes
 *     {@code namespace/name}
 * @param priority higher queues are served first
 * @param preemptionEnabled a pending unit may preempt strictly lower-priority admitted units of
 *     the same queue and quota ({@code koord-queue/enable-queueunit-preemption})
 * @param waitForPodsRunning after admitting a unit, the queue admits nothing more until that
 *     unit's pods run ({@code koord-queue/wait-for-pods-running})
 * @param priorityThreshold under the Intelligent policy, the lowest priority served first
 *     ({@code koord-queue/priority-threshold})
 * @param backfill when a unit cannot be admitted, it gets a reserved start from the expected ends
 *     of the admitted units, and later units of its quota in this queue are admitted only if they
 *     end by then or leave it what it needs ({@code koord4j.io/backfill})
 */
public record QueueConfig(
    String name,
    QueuePolicy policy,
    int priority,
    boolean preemptionEnabled,
    boolean waitForPodsRunning,
    Backoff backoff,
    int priorityThreshold,
    boolean backfill) {

  public QueueConfig {
    Objects.requireNonNull(name, "name");
    policy = policy == null ? QueuePolicy.PRIORITY : policy;
    backoff = backoff == null ? Backoff.DEFAULT : backoff;
  }

  /** A Priority queue of priority 0 with default backoff and no extras. */
  public static QueueConfig of(String name) {
    return new QueueConfig(
        name, QueuePolicy.PRIORITY, 0, false, false, Backoff.DEFAULT,
        QueuePolicy.DEFAULT_PRIORITY_THRESHOLD, false);
  }

  public QueueConfig withPolicy(QueuePolicy value) {
    return new QueueConfig(name, value, priority, preemptionEnabled, waitForPodsRunning, backoff, priorityThreshold, backfill);
  }

  public QueueConfig withPriority(int value) {
    return new QueueConfig(name, policy, value, preemptionEnabled, waitForPodsRunning, backoff, priorityThreshold, backfill);
  }

  public QueueConfig withPreemption() {
    return new QueueConfig(name, policy, priority, true, waitForPodsRunning, backoff, priorityThreshold, backfill);
  }

  public QueueConfig withWaitForPodsRunning() {
    return new QueueConfig(name, policy, priority, preemptionEnabled, true, backoff, priorityThreshold, backfill);
  }

  public QueueConfig withPriorityThreshold(int value) {
    return new QueueConfig(name, policy, priority, preemptionEnabled, waitForPodsRunning, backoff, value, backfill);
  }

  /** Whether the unit's priority puts it in the first tier of an Intelligent queue. */
  boolean servesFirst(int unitPriority) {
    return policy == QueuePolicy.INTELLIGENT && unitPriority >= priorityThreshold;
  }

  public QueueConfig withBackoff(Backoff value) {
    return new QueueConfig(name, policy, priority, preemptionEnabled, waitForPodsRunning, value, priorityThreshold, backfill);
  }

  public QueueConfig withBackfill() {
    return new QueueConfig(name, policy, priority, preemptionEnabled, waitForPodsRunning, backoff, priorityThreshold, true);
  }

  /** Whether a unit of this queue that cannot be admitted holds back the later units of its quota. */
  boolean blocks(boolean firstTier) {
    return policy == QueuePolicy.BLOCK || firstTier || backfill;
  }
}
