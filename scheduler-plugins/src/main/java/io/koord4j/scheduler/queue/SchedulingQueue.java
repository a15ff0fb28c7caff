package io.koord4j.scheduler.queue;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.ClusterEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Pending pods in three sub-queues, as in kube-scheduler:
 *
 * <ul>
 *   <li><b>active</b>: ready to schedule, highest priority first, then earliest arrival;
 *   <li><b>backoff</b>: failed recently; each waits {@code initial·2^(attempts−1)}, at most {@code
 *       max}, then becomes active;
 *   <li><b>unschedulable</b>: rejected by plugins; waits for a cluster event one of those plugins
 *       cares about, rather than retrying blindly. After {@code maxParked} it is retried anyway,
 *       in case an event was missed.
 * </ul>
 *
 * A pod popped for scheduling is in flight until {@link #done}, {@link #parkUnschedulable} or
 * {@link #backoff}; if it is deleted meanwhile it is not put back.
 */
public final class SchedulingQueue {

  private static final long LEFTOVER_CHECK_SECONDS = 30;

  private static final Comparator<QueuedPod> ORDER =
      Comparator.comparingInt(QueuedPod::priority)
          .reversed()
          .thenComparing(QueuedPod::arrival)
          .thenComparing(QueuedPod::uid);

  private final Clock clock;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Duration maxParked;
  private final Map<String, Set<ClusterEvent>> requeueEvents;

  private final PriorityQueue<QueuedPod> active = new PriorityQueue<>(ORDER);
  private final Map<String, QueuedPod> activeByUid = new HashMap<>();
  private final Map<String, QueuedPod> backoff = new HashMap<>();
  /**
   * Backoff pods by the end of their backoff, so a flush looks only at those that are due.
   * Entries are removed lazily: one whose pod left backoff, or re-entered it later, is skipped.
   */
  private final PriorityQueue<QueuedPod> backoffByEnd =
      new PriorityQueue<>(Comparator.comparing(this::backoffEnd));
  private final Map<String, QueuedPod> unschedulable = new HashMap<>();
  private final Map<String, QueuedPod> inFlight = new HashMap<>();
  private Instant lastLeftoverCheck;
  private long popCycle;
  /** The pop cycle of the latest event; pods rejected in an earlier cycle may have missed it. */
  private long eventCycle = -1;
  private boolean closed;

  /**
   * @param requeueEvents by plugin name, the events that may help pods the plugin rejected
   */
  public SchedulingQueue(
      Clock clock,
      Duration initialBackoff,
      Duration maxBackoff,
      Duration maxParked,
      Map<String, Set<ClusterEvent>> requeueEvents) {
    this.clock = clock;
    this.initialBackoff = initialBackoff;
    this.maxBackoff = maxBackoff;
    this.maxParked = maxParked;
    this.requeueEvents = Map.copyOf(requeueEvents);
    this.lastLeftoverCheck = clock.instant();
  }

  /** A new pending pod; an already known one is updated instead. */
  public synchronized void add(Pod pod) {
    String uid = pod.getMetadata().getUid();
    if (contains(uid)) {
      update(pod);
      return;
    }
    Instant now = clock.instant();
    activate(new QueuedPod(pod, now, 0, Set.of(), 0, now));
  }

  /**
   * A newer version of a queued pod. An unschedulable pod whose spec changed may fit now, so it
   * moves on; otherwise only the object is replaced.
   */
  public synchronized void update(Pod pod) {
    String uid = pod.getMetadata().getUid();
    QueuedPod parked = unschedulable.get(uid);
    if (parked != null) {
      unschedulable.remove(uid);
      QueuedPod updated = parked.with(pod);
      if (!parked.pod().getSpec().equals(pod.getSpec())) {
        requeue(updated);
      } else {
        unschedulable.put(uid, updated);
      }
      return;
    }
    if (activeByUid.containsKey(uid)) {
      active.remove(activeByUid.get(uid));
      activate(activeByUid.get(uid).with(pod));
    } else if (backoff.containsKey(uid)) {
      backoff.put(uid, backoff.get(uid).with(pod));
    } else if (inFlight.containsKey(uid)) {
      inFlight.put(uid, inFlight.get(uid).with(pod));
    }
  }

  /** The pod is gone or no longer ours; an in-flight attempt's result is dropped. */
  public synchronized void delete(String uid) {
    QueuedPod queued = activeByUid.remove(uid);
    if (queued != null) {
      active.remove(queued);
    }
    backoff.remove(uid);
    unschedulable.remove(uid);
    inFlight.remove(uid);
  }

  /** The next pod to schedule, waiting while none is active; empty once closed. */
  public synchronized Optional<QueuedPod> pop() throws InterruptedException {
    while (!closed) {
      Optional<QueuedPod> next = poll();
      if (next.isPresent()) {
        return next;
      }
      wait(millisUntilNextBackoffEnds());
    }
    return Optional.empty();
  }

  /** The next active pod if there is one now; moves finished backoffs first. */
  public synchronized Optional<QueuedPod> poll() {
    flush();
    QueuedPod next = active.poll();
    if (next == null) {
      return Optional.empty();
    }
    activeByUid.remove(next.uid());
    QueuedPod popped = next.popped(++popCycle);
    inFlight.put(popped.uid(), popped);
    return Optional.of(popped);
  }

  /** The attempt bound the pod. */
  public synchronized void done(String uid) {
    inFlight.remove(uid);
  }

  /**
   * The attempt found no place: the pod waits for an event its rejectors care about. If such an
   * event came while it was being scheduled it may already have changed things, so the pod only
   * backs off.
   */
  public synchronized void parkUnschedulable(QueuedPod attempt, Set<String> rejectors) {
    if (inFlight.remove(attempt.uid()) == null) {
      return;
    }
    QueuedPod parked = attempt.parked(rejectors, clock.instant());
    if (eventCycle >= attempt.cycle()) {
      startBackoff(parked);
    } else {
      unschedulable.put(parked.uid(), parked);
    }
    notifyAll();
  }

  /**
   * The attempt failed for a reason that time may fix (a gang gave up, binding failed).
   *
   * @return false when the pod was deleted meanwhile and so is not queued again
   */
  public synchronized boolean backoff(QueuedPod attempt) {
    if (inFlight.remove(attempt.uid()) == null) {
      return false;
    }
    startBackoff(attempt.parked(Set.of(), clock.instant()));
    notifyAll();
    return true;
  }

  /** Moves the unschedulable pods this event may help to backoff or active. */
  public synchronized void onEvent(ClusterEvent event) {
    eventCycle = popCycle;
    Iterator<QueuedPod> pods = unschedulable.values().iterator();
    while (pods.hasNext()) {
      QueuedPod pod = pods.next();
      if (mayHelp(event, pod.rejectors())) {
        pods.remove();
        requeue(pod);
      }
    }
  }

  public synchronized void close() {
    closed = true;
    notifyAll();
  }

  /** Sizes of the active, backoff and unschedulable sub-queues, for metrics. */
  public synchronized Map<String, Integer> sizes() {
    return Map.of(
        "active", active.size(), "backoff", backoff.size(), "unschedulable", unschedulable.size());
  }

  public synchronized boolean contains(String uid) {
    return activeByUid.containsKey(uid)
        || backoff.containsKey(uid)
        || unschedulable.containsKey(uid)
        || inFlight.containsKey(uid);
  }

  private boolean mayHelp(ClusterEvent event, Set<String> rejectors) {
    return rejectors.isEmpty()
        || rejectors.stream()
            .anyMatch(plugin -> requeueEvents.getOrDefault(plugin, Set.of(event)).contains(event));
  }

  /** Back to active, or to backoff while its backoff lasts. */
  private void requeue(QueuedPod pod) {
    if (backoffEnd(pod).isAfter(clock.instant())) {
      startBackoff(pod);
    } else {
      activate(pod);
    }
  }

  private void activate(QueuedPod pod) {
    active.add(pod);
    activeByUid.put(pod.uid(), pod);
    notifyAll();
  }

  private void startBackoff(QueuedPod pod) {
    backoff.put(pod.uid(), pod);
    backoffByEnd.add(pod);
  }

  /** Ends due backoffs; every {@value #LEFTOVER_CHECK_SECONDS} s also retries long-parked pods. */
  private void flush() {
    Instant now = clock.instant();
    while (!backoffByEnd.isEmpty() && !backoffEnd(backoffByEnd.peek()).isAfter(now)) {
      QueuedPod due = backoffByEnd.poll();
      QueuedPod current = backoff.get(due.uid());
      if (current != null && backoffEnd(current).equals(backoffEnd(due))) {
        backoff.remove(due.uid());
        activate(current);
      }
    }
    if (lastLeftoverCheck.plusSeconds(LEFTOVER_CHECK_SECONDS).isAfter(now)) {
      return;
    }
    lastLeftoverCheck = now;
    for (QueuedPod pod : List.copyOf(unschedulable.values())) {
      if (!pod.since().plus(maxParked).isAfter(now)) {
        unschedulable.remove(pod.uid());
        requeue(pod);
      }
    }
  }

  Instant backoffEnd(QueuedPod pod) {
    if (pod.attempts() == 0) {
      return pod.since();
    }
    int doublings = Math.min(pod.attempts() - 1, 30);
    Duration wait = initialBackoff.multipliedBy(1L << doublings);
    return pod.since().plus(wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait);
  }

  private long millisUntilNextBackoffEnds() {
    long millis =
        backoffByEnd.isEmpty()
            ? 1000
            : Duration.between(clock.instant(), backoffEnd(backoffByEnd.peek())).toMillis();
    return Math.max(1, Math.min(millis, 1000));
  }
}
