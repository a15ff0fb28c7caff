package io.koord4j.scheduler.plugins.loadaware;

import static io.koord4j.scheduler.Fixtures.nodeInfo;
import static io.koord4j.scheduler.Fixtures.pod;
import static io.koord4j.scheduler.plugins.loadaware.NodeLoadTest.metric;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadAwareTest {

  private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
  private static final NodeInfo NODE = nodeInfo("n", "10", "100Gi");

  private final LoadAwareArgs args = LoadAwareArgs.defaults();
  private final PodUsageEstimator estimator = new PodUsageEstimator(args.estimatedScalingFactors());
  private final NodeLoads loads = new NodeLoads(estimator);
  private final LoadAware plugin =
      new LoadAware(args, estimator, loads, Clock.fixed(NOW, ZoneOffset.UTC));

  @Test
  void aNodeWithoutAMetricPassesAndScoresZero() {
    Pod pod = pod("p", "1", "1Gi");

    assertThat(filter(pod, NODE)).isEqualTo(Status.SUCCESS);
    assertThat(score(pod, NODE)).isZero();
  }

  @Test
  void rejectsANodeTheEstimatedPodWouldPushOverTheCpuThreshold() {
    measure("n", NOW.minusSeconds(30), "6", "10Gi");

    // 6 CPUs used + 85 % of 1 CPU = 68.5 % > 65 %; + 85 % of 500m = 64.25 %.
    Status rejected = filter(pod("big", "1", "1Gi"), NODE);
    assertThat(rejected.isRejection()).isTrue();
    assertThat(rejected.reasons()).containsExactly("node(s) cpu usage exceed threshold");
    assertThat(filter(pod("small", "500m", "1Gi"), NODE)).isEqualTo(Status.SUCCESS);
  }

  @Test
  void ignoresAnExpiredMetric() {
    measure("n", NOW.minusSeconds(180), "9", "90Gi");

    assertThat(filter(pod("p", "1", "1Gi"), NODE)).isEqualTo(Status.SUCCESS);
    assertThat(score(pod("p", "1", "1Gi"), NODE)).isZero();
  }

  @Test
  void countsPodsPlacedSinceTheMeasurementAtTheirEstimate() {
    measure("n", NOW.minusSeconds(30), "5", "10Gi");
    Pod placed = pod("placed", "2", "1Gi");
    Pod next = pod("next", "1", "1Gi");

    plugin.reserve(new CycleState(), placed, "n");
    // 5 + 1.7 (placed) + 0.85 (next) = 75.5 % of 10 CPUs.
    assertThat(filter(next, NODE).reasons()).containsExactly("node(s) cpu usage exceed threshold");

    plugin.unreserve(new CycleState(), placed, "n");
    assertThat(filter(next, NODE)).isEqualTo(Status.SUCCESS);
  }

  @Test
  void countsAPodTheMeasurementAlreadyShowsOnlyOnce() {
    measure("n", NOW.minusSeconds(30), "5800m", "10Gi"); // includes team/web at 500m
    loads.assign(named("team", "web", "2"), "n", NOW.minusSeconds(600));

    // 5.8 + 0.85 = 66.5 % would fail only if web's 1.7 estimate were added on top.
    assertThat(filter(pod("p", "500m", "1Gi"), NODE)).isEqualTo(Status.SUCCESS);
  }

  @Test
  void replacesAFreshPodsMeasurementByItsHigherEstimate() {
    measure("n", NOW.minusSeconds(30), "5", "10Gi"); // includes team/web at 500m
    loads.assign(named("team", "web", "2"), "n", NOW.minusSeconds(40));

    // 5 − 0.5 + 1.7 (web, estimated) + 0.425 = 66.25 %.
    assertThat(filter(pod("p", "500m", "1Gi"), NODE).isRejection()).isTrue();
  }

  @Test
  void scoresTheShareLeftUnusedWeightedByResource() {
    measure("n", NOW.minusSeconds(30), "2", "10Gi");
    measure("busy", NOW.minusSeconds(30), "6", "50Gi");
    Pod pod = pod("p", "1", "1Gi");

    // cpu: (10 − 2.85) / 10 = 71; memory: (100 − 10.7) / 100 = 89; mean 80.
    assertThat(score(pod, NODE)).isEqualTo(80);
    assertThat(score(pod, nodeInfo("busy", "10", "100Gi"))).isLessThan(80);
  }

  @Test
  void letsDaemonSetPodsThrough() {
    measure("n", NOW.minusSeconds(30), "9", "10Gi");
    Pod daemon =
        new PodBuilder(pod("d", "1", "1Gi"))
            .editMetadata()
            .addNewOwnerReference()
            .withKind("DaemonSet")
            .withName("agent")
            .endOwnerReference()
            .endMetadata()
            .build();

    assertThat(filter(daemon, NODE)).isEqualTo(Status.SUCCESS);
  }

  private void measure(String node, Instant at, String cpu, String memory) {
    loads.putMetric(
        node, NodeLoad.from(metric(at.toString(), Map.of("cpu", cpu, "memory", memory))).orElseThrow());
  }

  private static Pod named(String namespace, String name, String cpu) {
    return new PodBuilder(pod(name, cpu, "1Gi")).editMetadata().withNamespace(namespace).endMetadata().build();
  }

  private Status filter(Pod pod, NodeInfo node) {
    CycleState state = new CycleState();
    plugin.preFilter(state, pod);
    return plugin.filter(state, pod, node);
  }

  private long score(Pod pod, NodeInfo node) {
    CycleState state = new CycleState();
    plugin.preFilter(state, pod);
    return plugin.score(state, pod, node);
  }
}
