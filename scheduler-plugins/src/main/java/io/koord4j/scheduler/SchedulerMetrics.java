package io.koord4j.scheduler;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.queue.SchedulingQueue;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-scheduler's core metrics under the same names, so existing dashboards read them, and the
 * GPU allocation of nodes with a Device object.
 */
public final class SchedulerMetrics {

  public static final String SCHEDULED = "scheduled";
  public static final String UNSCHEDULABLE = "unschedulable";
  public static final String ERROR = "error";

  private final MeterRegistry registry;
  private final Timer cycle;
  /** Counters by result, looked up once rather than on every attempt. */
  private final Map<String, Counter> attempts = new ConcurrentHashMap<>();

  public SchedulerMetrics(MeterRegistry registry, SchedulingQueue queue, SchedulerCache cache) {
    this.registry = registry;
    this.cycle =
        Timer.builder("scheduler_scheduling_attempt_duration")
            .description("Scheduling cycle latency, PreFilter to Permit")
            .publishPercentileHistogram()
            .register(registry);
    for (String subQueue : queue.sizes().keySet()) {
      Gauge.builder("scheduler_pending_pods", queue, q -> q.sizes().get(subQueue))
          .description("Pending pods by sub-queue")
          .tag("queue", subQueue)
          .register(registry);
    }
    Gauge.builder("scheduler_gpu_allocated", cache, c -> c.gpuTotals().allocated())
        .description("GPUs held by bound and assumed pods on nodes with a Device object, in whole GPUs of core")
        .register(registry);
    Gauge.builder("scheduler_gpu_healthy", cache, c -> c.gpuTotals().healthy())
        .description("Healthy GPUs on nodes with a Device object")
        .register(registry);
  }

  /** Pods placed and held at Permit, such as the members of a gang waiting for the rest. */
  public static void registerPermitWaits(MeterRegistry registry, WaitingPods waiting) {
    Gauge.builder("scheduler_permit_waiting_pods", waiting, w -> w.all().size())
        .description("Pods placed and held at Permit")
        .strongReference(true)
        .register(registry);
  }

  /** One finished attempt: {@link #SCHEDULED}, {@link #UNSCHEDULABLE} or {@link #ERROR}. */
  public void attempt(String result) {
    attempts
        .computeIfAbsent(
            result,
            r ->
                Counter.builder("scheduler_schedule_attempts")
                    .description("Scheduling attempts by result")
                    .tag("result", r)
                    .register(registry))
        .increment();
  }

  public void cycle(Duration duration) {
    cycle.record(duration);
  }

  public double attempts(String result) {
    Counter counter = registry.find("scheduler_schedule_attempts").tag("result", result).counter();
    return counter == null ? 0 : counter.count();
  }
}
