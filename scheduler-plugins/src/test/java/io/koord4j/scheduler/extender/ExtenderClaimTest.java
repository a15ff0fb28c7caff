package io.koord4j.scheduler.extender;

import static io.koord4j.scheduler.GpuFixtures.gpuPod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.scheduler.GpuFixtures;
import io.koord4j.scheduler.TestGangs;
import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.extender.ExtenderTypes.ExtenderBindingArgs;
import io.koord4j.scheduler.extender.ExtenderTypes.ExtenderBindingResult;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.Plugin;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.DefaultBinder;
import io.koord4j.scheduler.plugins.coscheduling.GangResolver;
import io.koord4j.scheduler.plugins.deviceshare.DeviceShare;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Bind claims a node's room in one step, so concurrent binds never share it. */
class ExtenderClaimTest {
  private static final int RACERS = 8;

  private final ExecutorService filterPool = Executors.newFixedThreadPool(2);
  private final ExecutorService racers = Executors.newFixedThreadPool(RACERS);
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final WaitingPods waiting = new WaitingPods(timer);
  private final SchedulerCache cache = new SchedulerCache(GangResolver::gangIdOf);
  private final Map<String, String> bindings = new ConcurrentHashMap<>();
  private final Extender extender;

  ExtenderClaimTest() {
    DeviceShare deviceShare =
        new DeviceShare(
            DeviceShare.GpuReservations.of(cache::reserveGpus, cache::releaseGpus),
            (pod, key, value) -> {});
    DefaultBinder binder =
        new DefaultBinder((pod, node) -> bindings.put(pod.getMetadata().getName(), node));
    Framework framework =
        new Framework(
            List.<Plugin>of(TestGangs.coscheduling(cache, waiting), deviceShare, binder),
            Map.of(),
            filterPool,
            2,
            waiting);
    extender = new Extender(framework, cache);
  }

  @AfterEach
  void stop() {
    racers.shutdownNow();
    filterPool.shutdownNow();
    timer.shutdownNow();
  }

  @Test
  void podsRacingForTheLastGpuBindExactlyOne() throws Exception {
    gpuNode("last", 1);
    List<Pod> pods =
        IntStream.range(0, RACERS)
            .mapToObj(i -> gpuPod("racer-" + i, Map.of(WellKnown.NVIDIA_GPU, "1"), Map.of()))
            .toList();
    pods.forEach(cache::upsertPod);
    CountDownLatch start = new CountDownLatch(1);

    List<CompletableFuture<ExtenderBindingResult>> binds =
        pods.stream()
            .map(pod -> CompletableFuture.supplyAsync(() -> bindWhen(start, pod, "last"), racers))
            .toList();
    start.countDown();
    List<String> errors =
        binds.stream().map(bind -> bind.orTimeout(20, TimeUnit.SECONDS).join().error()).toList();

    assertThat(errors).filteredOn(error -> error == null).hasSize(1);
    assertThat(errors).filteredOn(error -> error != null).hasSize(RACERS - 1)
        .allMatch(error -> error.startsWith(DeviceShare.NAME + ":"));
    assertThat(bindings).hasSize(1).containsValue("last");
    assertThat(cache.gpuTotals().allocated()).isEqualTo(1);
  }

  @Test
  void aSecondBindOfAPodStillWaitingAtPermitIsRefusedAndItsGpusStay() throws Exception {
    gpuNode("two", 2);
    Pod first = gangMember("first");
    cache.upsertPod(first);
    cache.upsertPod(gangMember("second"));
    CompletableFuture<ExtenderBindingResult> waitingForGang =
        extender.bind(args(first, "two"), Runnable::run);

    ExtenderBindingResult retried =
        extender.bind(args(first, "two"), Runnable::run).orTimeout(5, TimeUnit.SECONDS).join();

    assertThat(waitingForGang).isNotDone();
    assertThat(retried.error())
        .isEqualTo("Extender: pod is already bound or being bound to node two");
    assertThat(cache.isAssumed(first.getMetadata().getUid())).isTrue();
    assertThat(cache.gpuTotals().allocated()).isEqualTo(1);
    assertThat(bindings).isEmpty();
  }

  private void gpuNode(String name, int gpus) {
    cache.upsertNode(GpuFixtures.h100Node(name));
    cache.upsertDevice(GpuFixtures.device(name, gpus));
  }

  private static Pod gangMember(String name) {
    return gpuPod(
        name,
        Map.of(WellKnown.NVIDIA_GPU, "1"),
        Map.of(
            WellKnown.GANG_NAME, "pair",
            WellKnown.GANG_MIN_AVAILABLE, "2",
            WellKnown.GANG_WAITING_TIME, "60s"));
  }

  private ExtenderBindingResult bindWhen(CountDownLatch start, Pod pod, String node) {
    try {
      start.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return extender.bind(args(pod, node), Runnable::run).join();
  }

  private static ExtenderBindingArgs args(Pod pod, String node) {
    return new ExtenderBindingArgs(
        pod.getMetadata().getName(), pod.getMetadata().getNamespace(), pod.getMetadata().getUid(), node);
  }
}
