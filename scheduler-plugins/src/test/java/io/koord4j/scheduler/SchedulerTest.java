package io.koord4j.scheduler;

import static io.koord4j.scheduler.Fixtures.node;
import static io.koord4j.scheduler.Fixtures.pod;
import static io.koord4j.scheduler.Fixtures.withAnnotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.Plugin;
import io.koord4j.scheduler.framework.PreBindPlugin;
import io.koord4j.scheduler.framework.ReservePlugin;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.DefaultBinder;
import io.koord4j.scheduler.plugins.NodeResourcesFit;
import io.koord4j.scheduler.plugins.TaintToleration;
import io.koord4j.scheduler.plugins.coscheduling.GangResolver;
import io.koord4j.scheduler.queue.QueuedPod;
import io.koord4j.scheduler.queue.SchedulingQueue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scheduling and binding cycles over fake nodes, with a binder that records bindings. */
class SchedulerTest {

  private final ExecutorService pool = Executors.newFixedThreadPool(4);
  private final WaitingPods waiting = new WaitingPods(Executors.newSingleThreadScheduledExecutor());
  private final SchedulerCache cache = new SchedulerCache(GangResolver::gangIdOf);
  private final Map<String, String> bindings = new ConcurrentHashMap<>();
  private final Map<String, String> failures = new ConcurrentHashMap<>();
  private final AtomicBoolean reserveThrows = new AtomicBoolean();
  private final AtomicBoolean preBindThrows = new AtomicBoolean();
  /** Pods whose next binding fails, once each. */
  private final Set<String> bindFailsOnce = ConcurrentHashMap.newKeySet();

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
      if (preBindThrows.get() || bindFailsOnce.remove(pod.getMetadata().getName())) {
        throw new IllegalStateException("pre-bind broke");
      }
      return Status.SUCCESS;
    }
  }

  private final Framework framework =
      new Framework(
          List.<Plugin>of(
              TestGangs.coscheduling(cache, waiting),
              new TaintToleration(),
              new NodeResourcesFit(),
              new Flaky(),
              new DefaultBinder(
                  (pod, node) -> {
                    bindings.put(pod.getMetadata().getName(), node);
                    cache.upsertPod(Fixtures.boundTo(pod, node));
                  })),
          Map.of(),
          pool,
          4,
          waiting);
  private final SchedulingQueue queue =
      new SchedulingQueue(
          Clock.systemUTC(),
          Duration.ofMillis(10),
          Duration.ofMillis(50),
          Duration.ofMinutes(5),
          framework.requeueEvents());
  private final SchedulerMetrics metrics = new SchedulerMetrics(new SimpleMeterRegistry(), queue, cache);
  private final Scheduler scheduler =
      new Scheduler(
          queue,
          cache,
          framework,
          new Scheduler.Outcomes() {
            @Override
            public void unschedulable(Pod pod, String message) {
              failures.put(pod.getMetadata().getName(), message);
            }

            @Override
            public void scheduled(Pod pod, String nodeName) {
              failures.remove(pod.getMetadata().getName());
            }
          },
          pool,
          metrics);

  @AfterEach
  void stop() {
    queue.close();
    pool.shutdownNow();
  }

  @Test
  void bindsAPodToANodeWithRoomAndExplainsAPodThatFitsNowhere() {
    cache.upsertNode(node("small", "2", "4Gi"));
    cache.upsertNode(node("big", "8", "16Gi"));
    submit(pod("fits", "4", "1Gi"));
    submit(pod("huge", "16", "1Gi"));

    runUntilQueueIsIdle();

    await().until(() -> bindings.containsKey("fits"));
    assertThat(bindings).containsEntry("fits", "big").doesNotContainKey("huge");
    assertThat(failures)
        .containsEntry("huge", "0/2 nodes are available: 2 Insufficient cpu.");
    assertThat(metrics.attempts(SchedulerMetrics.SCHEDULED)).isEqualTo(1);
    assertThat(metrics.attempts(SchedulerMetrics.UNSCHEDULABLE)).isEqualTo(1);
  }

  @Test
  void assumedPodsKeepTheNextPodOutOfTheSameRoom() {
    cache.upsertNode(node("n", "4", "8Gi"));
    submit(pod("a", "3", "1Gi"));
    submit(pod("b", "3", "1Gi"));
    runUntilQueueIsIdle();
    await().until(() -> bindings.size() == 1 && failures.size() == 1);
  }

  @Test
  void aGangBindsAllOrNothingAndWhenRoomAppears() {
    cache.upsertNode(node("n1", "2", "8Gi"));
    cache.upsertNode(node("n2", "1", "8Gi"));
    List<Pod> gang =
        IntStream.range(0, 4).mapToObj(i -> gangMember("w" + i, "30s")).toList();
    gang.forEach(this::submit);

    runUntilQueueIsIdle();
    await().until(() -> failures.size() == 4);
    assertThat(bindings).isEmpty();
    assertThat(failures.values())
        .anyMatch(m -> m.equals("0/2 nodes are available: 2 Insufficient cpu."))
        .anyMatch(m -> m.contains("gang default/train rejected in Strict mode"));

    cache.upsertNode(node("n3", "1", "8Gi"));
    queue.onEvent(ClusterEvent.NODE_ADDED);
    scheduleUntilBound(4);
    // The binding threads report each success just after binding.
    await().untilAsserted(() -> assertThat(failures).isEmpty());
  }

  @Test
  void aMemberWhoseBindingFailsAfterPermitIsRetriedUntilItsGangIsWhole() {
    cache.upsertNode(node("n1", "8", "8Gi"));
    List<Pod> gang = IntStream.range(0, 4).mapToObj(i -> gangMember("w" + i, "30s")).toList();
    bindFailsOnce.add("w3");
    gang.forEach(this::submit);

    scheduleUntilBound(4);
    assertThat(metrics.attempts(SchedulerMetrics.ERROR)).as("w3's failed binding").isEqualTo(1);
    assertThat(cache.groupPlaced("default/train")).isEqualTo(4);
  }

  @Test
  void placedMembersAreReleasedWhenTheWaitingTimeRunsOut() {
    cache.upsertNode(node("n1", "8", "8Gi"));
    List<Pod> gang = IntStream.range(0, 4).mapToObj(i -> gangMember("w" + i, "200ms")).toList();
    gang.subList(0, 3).forEach(this::submit);
    // The fourth member exists but is not ours to schedule yet, so three wait for it in vain.
    cache.upsertPod(gang.get(3));

    runUntilQueueIsIdle();
    assertThat(waiting.all()).hasSize(3);
    await().until(() -> failures.size() == 3 && waiting.all().isEmpty());
    // The first to time out sends the others back at once (Strict mode).
    assertThat(failures.values())
        .anyMatch(m -> m.equals("Coscheduling: rejected after waiting 200ms at Permit"))
        .allMatch(m -> m.contains("rejected after waiting") || m.contains("rejected in Strict mode"));
    assertThat(cache.groupPlaced("default/train")).isZero();
    assertThat(queue.sizes()).containsEntry("backoff", 3);
  }

  @Test
  void aWaitingMemberThatIsDeletedReleasesItsGangInStrictMode() {
    cache.upsertNode(node("n1", "8", "8Gi"));
    List<Pod> gang = IntStream.range(0, 4).mapToObj(i -> gangMember("w" + i, "30s")).toList();
    gang.subList(0, 3).forEach(this::submit);
    cache.upsertPod(gang.get(3));
    runUntilQueueIsIdle();
    assertThat(waiting.all()).hasSize(3);

    String uid = gang.get(0).getMetadata().getUid();
    queue.delete(uid);
    waiting.reject(uid, "ClusterWatch", "the pod was deleted");
    cache.removePod(uid);

    await().until(() -> waiting.all().isEmpty() && failures.size() == 2);
    assertThat(cache.groupPlaced("default/train")).isZero();
    assertThat(failures).doesNotContainKey("w0");
    assertThat(failures.values()).allMatch(m -> m.contains("member default/w0 failed after it was placed"));
    assertThat(queue.contains(uid)).isFalse();
  }

  @Test
  void aReservePluginThatThrowsLeavesThePodUnassumedAndInTheQueue() {
    reserveThrows.set(true);
    Pod pod = scheduleOnePodOnAFreeNode();

    assertThat(cache.isAssumed(pod.getMetadata().getUid())).isFalse();
    assertThat(queue.contains(pod.getMetadata().getUid())).isTrue();
    assertThat(metrics.attempts(SchedulerMetrics.ERROR)).isEqualTo(1);
  }

  @Test
  void aBindingCycleThatThrowsLeavesThePodUnassumedAndInTheQueue() {
    preBindThrows.set(true);
    Pod pod = scheduleOnePodOnAFreeNode();

    await().atMost(Duration.ofSeconds(10))
        .until(() -> metrics.attempts(SchedulerMetrics.ERROR) == 1);
    assertThat(cache.isAssumed(pod.getMetadata().getUid())).isFalse();
    assertThat(queue.contains(pod.getMetadata().getUid())).isTrue();
  }

  private Pod scheduleOnePodOnAFreeNode() {
    cache.upsertNode(node("n", "4", "8Gi"));
    Pod pod = pod("p", "1", "1Gi");
    submit(pod);
    scheduler.scheduleOne(queue.poll().orElseThrow());
    return pod;
  }

  private Pod gangMember(String name, String waitingTime) {
    return withAnnotations(
        pod(name, "1", "1Gi"),
        Map.of(
            WellKnown.GANG_NAME, "train",
            WellKnown.GANG_MIN_AVAILABLE, "4",
            WellKnown.GANG_WAITING_TIME, waitingTime));
  }

  private void submit(Pod pod) {
    cache.upsertPod(pod);
    queue.add(pod);
  }

  /** Schedules what the queue holds, again as pods back off, until that many pods are bound. */
  private void scheduleUntilBound(int pods) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              runUntilQueueIsIdle();
              return bindings.size() == pods;
            });
  }

  private void runUntilQueueIsIdle() {
    for (Optional<QueuedPod> next = queue.poll();
        next.isPresent();
        next = queue.poll()) {
      scheduler.scheduleOne(next.get());
    }
  }
}
