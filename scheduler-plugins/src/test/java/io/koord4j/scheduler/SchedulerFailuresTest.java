package io.koord4j.scheduler;

import static io.koord4j.scheduler.Fixtures.node;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.Plugin;
import io.koord4j.scheduler.framework.PreBindPlugin;
import io.koord4j.scheduler.framework.ReservePlugin;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.DefaultBinder;
import io.koord4j.scheduler.plugins.NodeResourcesFit;
import io.koord4j.scheduler.plugins.coscheduling.GangResolver;
import io.koord4j.scheduler.queue.SchedulingQueue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A plugin that throws leaves no pod assumed, and the pod is tried again. */
class SchedulerFailuresTest {
  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private final SchedulerCache cache = new SchedulerCache(GangResolver::gangIdOf);
  private final AtomicBoolean reserveThrows = new AtomicBoolean();
  private final AtomicBoolean preBindThrows = new AtomicBoolean();

  /** Throws where a test asks it to, as a plugin with a bug would. */
  private final class Flaky implements ReservePlugin, PreBindPlugin {
    @Override
    public String name() {
      return "Flaky";
    }

    @Override
    public Status reserve(CycleState state, Pod pod, String nodeName) {
      if (reserveThrows.get()) {
        throw new IllegalStateException("reserve broke");
      }
      return Status.SUCCESS;
    }

    @Override
    public void unreserve(CycleState state, Pod pod, String nodeName) {}

    @Override
    public Status preBind(CycleState state, Pod pod, String nodeName) {
      if (preBindThrows.get()) {
        throw new IllegalStateException("pre-bind broke");
      }
      return Status.SUCCESS;
    }
  }

  private final Framework framework =
      new Framework(
          List.<Plugin>of(
              new NodeResourcesFit(),
              new Flaky(),
              new DefaultBinder((pod, node) -> {})),
          Map.of(),
          pool,
          2,
          new WaitingPods(null));
  private final SchedulingQueue queue =
      new SchedulingQueue(
          Clock.systemUTC(), Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMinutes(5),
          framework.requeueEvents());
  private final SchedulerMetrics metrics =
      new SchedulerMetrics(new SimpleMeterRegistry(), queue, cache);
  private final Scheduler scheduler =
      new Scheduler(
          queue,
          cache,
          framework,
          new Scheduler.Outcomes() {
            @Override
            public void unschedulable(Pod pod, String message) {}

            @Override
            public void scheduled(Pod pod, String nodeName) {}
          },
          pool,
          metrics);

  @AfterEach
  void stop() {
    queue.close();
    pool.shutdownNow();
  }

  @Test
  void aReservePluginThatThrowsLeavesThePodUnassumedAndInTheQueue() {
    reserveThrows.set(true);
    Pod pod = submit();

    scheduler.scheduleOne(queue.poll().orElseThrow());

    assertThat(cache.isAssumed(pod.getMetadata().getUid())).isFalse();
    assertThat(queue.contains(pod.getMetadata().getUid())).isTrue();
    assertThat(metrics.attempts(SchedulerMetrics.ERROR)).isEqualTo(1);
  }

  @Test
  void aBindingCycleThatThrowsLeavesThePodUnassumedAndInTheQueue() {
    preBindThrows.set(true);
    Pod pod = submit();

    scheduler.scheduleOne(queue.poll().orElseThrow());

    await().atMost(Duration.ofSeconds(10))
        .until(() -> metrics.attempts(SchedulerMetrics.ERROR) == 1);
    assertThat(cache.isAssumed(pod.getMetadata().getUid())).isFalse();
    assertThat(queue.contains(pod.getMetadata().getUid())).isTrue();
  }

  private Pod submit() {
    cache.upsertNode(node("n", "4", "8Gi"));
    Pod pod = pod("p", "1", "1Gi");
    cache.upsertPod(pod);
    queue.add(pod);
    return pod;
  }
}
