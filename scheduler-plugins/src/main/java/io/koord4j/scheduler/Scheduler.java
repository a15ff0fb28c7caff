package io.koord4j.scheduler;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.queue.QueuedPod;
import io.koord4j.scheduler.queue.SchedulingQueue;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes pods from the queue one at a time through the scheduling cycle (PreFilter to Permit),
 * then hands each to the binding cycle (waiting at Permit, PreBind, Bind) on another thread so
 * that the next pod does not wait for the API server.
 */
public record Scheduler(
    SchedulingQueue queue,
    SchedulerCache cache,
    Framework framework,
    Scheduler.Outcomes outcomes,
    Executor binding,
    SchedulerMetrics metrics)
    implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

  /**
   * Where outcomes are told to people: pod conditions and events. Called on the scheduling and
   * binding threads, so an implementation must not wait for the API server on them.
   */
  public interface Outcomes {
    void unschedulable(Pod pod, String message);

    void scheduled(Pod pod, String nodeName);
  }

  /** Schedules until the queue is closed. */
  @Override
  public void run() {
    try {
      for (Optional<QueuedPod> next = queue.pop(); next.isPresent(); next = queue.pop()) {
        scheduleOne(next.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * One scheduling cycle for a popped pod. A plugin that throws, in this cycle or the binding
   * cycle, gives back what was assumed and reserved, and the pod backs off.
   */
  public void scheduleOne(QueuedPod attempt) {
    long start = System.nanoTime();
    Pod pod = attempt.pod();
    CycleState state = new CycleState();
    String assumedOn = null;
    try {
      Framework.Placement placement = framework.selectNode(state, pod, cache.snapshot());
      if (!placement.found()) {
        metrics.attempt(SchedulerMetrics.UNSCHEDULABLE);
        queue.parkUnschedulable(attempt, placement.error().rejectors());
        outcomes.unschedulable(pod, placement.error().message());
        return;
      }
      String node = placement.nodeName();
      cache.assume(pod, node);
      assumedOn = node;
      Status reserved = framework.reserve(state, pod, node);
      if (!reserved.isSuccess()) {
        cache.forget(attempt.uid());
        metrics.attempt(SchedulerMetrics.UNSCHEDULABLE);
        queue.parkUnschedulable(attempt, Set.of(reserved.plugin()));
        outcomes.unschedulable(pod, reserved.plugin() + ": " + reserved.message());
        return;
      }
      framework
          .permit(state, pod, node)
          .exceptionally(e -> Status.error("permit failed: " + e).by("Permit"))
          .thenAcceptAsync(permit -> bindingCycle(attempt, state, node, permit), binding)
          .exceptionally(e -> logged(pod, e));
    } catch (RuntimeException e) {
      LOG.error("scheduling {} failed", nameOf(pod), e);
      if (assumedOn != null) {
        framework.unreserve(state, pod, assumedOn);
        cache.forget(attempt.uid());
      }
      metrics.attempt(SchedulerMetrics.ERROR);
      queue.backoff(attempt);
    } finally {
      metrics.cycle(Duration.ofNanos(System.nanoTime() - start));
    }
  }

  /** A PreBind or Bind that throws fails the binding like one that returns an error. */
  private void bindingCycle(QueuedPod attempt, CycleState state, String node, Status permit) {
    Pod pod = attempt.pod();
    Status status;
    try {
      status = permit.isSuccess() ? framework.bind(state, pod, node) : permit;
    } catch (RuntimeException e) {
      LOG.error("binding {} failed", nameOf(pod), e);
      status = Status.error("binding failed: " + e).by("Bind");
    }
    if (status.isSuccess()) {
      metrics.attempt(SchedulerMetrics.SCHEDULED);
      queue.done(attempt.uid());
      outcomes.scheduled(pod, node);
      return;
    }
    framework.unreserve(state, pod, node);
    cache.forget(attempt.uid());
    metrics.attempt(
        status.isRejection() ? SchedulerMetrics.UNSCHEDULABLE : SchedulerMetrics.ERROR);
    if (queue.backoff(attempt)) {
      outcomes.unschedulable(pod, status.plugin() + ": " + status.message());
    }
  }

  /** A failure after the pod's outcome was settled: nothing to give back, only to log. */
  private static Void logged(Pod pod, Throwable e) {
    LOG.error("binding cycle of {} failed after its outcome", nameOf(pod), e);
    return null;
  }

  private static String nameOf(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
