package io.koord4j.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import io.koord4j.api.slo.NodeMetric;
import io.koord4j.api.slo.NodeMetricInfo;
import io.koord4j.api.slo.NodeMetricStatus;
import io.koord4j.api.slo.ResourceMap;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * koord-scheduler running in this process against the real local control plane, placing pods on
 * KWOK nodes of its own ({@link SchedulerTestBed}).
 */
class KoordSchedulerIT {

  private static SchedulerTestBed bed;
  private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeAll
  static void start() {
    bed = new SchedulerTestBed("koord-sched-it");
    bed.startScheduler(KoordScheduler.DEFAULT_NAME, registry);
  }

  @AfterAll
  static void stop() {
    if (bed != null) {
      bed.close();
    }
  }

  @Test
  void bindsAPodThatNamesKoordScheduler() {
    List<String> pool = addNodes("single", 1, "ks-" + bed.run() + "-a");
    Pod pod = bed.client().resource(pod("solo", "single", "1")).create();

    Pod bound = bed.awaitBound(pod.getMetadata().getName());

    assertThat(bound.getSpec().getNodeName()).isIn(pool);
  }

  @Test
  void aGangBindsAllOrNothingAndRetriesUntilRoomAppears() {
    addNodes("gang", 3, "ks-" + bed.run() + "-g");
    Map<String, String> gang =
        Map.of(
            WellKnown.GANG_NAME, "train",
            WellKnown.GANG_MIN_AVAILABLE, "4",
            WellKnown.GANG_MODE, "Strict",
            WellKnown.GANG_WAITING_TIME, "4s");
    List<String> names = IntStream.range(0, 4).mapToObj(i -> "worker-" + i).toList();
    for (String name : names) {
      // 7 of 8 CPUs: one member per node, so three nodes hold three members.
      bed.client().resource(Fixtures.withAnnotations(pod(name, "gang", "7"), gang)).create();
    }

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> names.stream().allMatch(n -> bed.unschedulableMessage(n).isPresent()));
    double attemptsBefore = unschedulableAttempts();
    // Every member tried and refused again (placed members wait at Permit, then are rejected
    // with the gang): the decision was taken again, and still none binds.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> unschedulableAttempts() >= attemptsBefore + names.size());
    assertThat(names).allMatch(n -> bed.nodeOf(n).isEmpty());
    assertThat(unschedulableAttempts()).isGreaterThan(attemptsBefore);
    assertThat(names.stream().map(bed::unschedulableMessage).map(Optional::get))
        .anyMatch(m -> m.contains("Insufficient cpu"))
        .anyMatch(m -> m.contains("gang " + bed.namespace() + "/train rejected") || m.contains("rejected after waiting"));

    addNodes("gang", 1, "ks-" + bed.run() + "-h");

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> names.stream().allMatch(n -> bed.nodeOf(n).isPresent()));
  }

  @Test
  void aPodOverItsQuotaWaitsAndBindsWhenTheQuotaFrees() {
    addNodes("quota", 1, "ks-" + bed.run() + "-q");
    String quota = "ks-quota-" + bed.run();
    bed.client().resource(elasticQuota(quota)).create();
    Pod first = bed.client().resource(withQuota(pod("first", "quota", "1500m"), quota)).create();
    bed.awaitBound(first.getMetadata().getName());

    bed.client().resource(withQuota(pod("second", "quota", "1"), quota)).create();

    assertThat(bed.awaitUnschedulable("second", Duration.ofSeconds(30)))
        .contains("quota \"" + quota + "\" has 500m of cpu available, 1 requested");
    assertThat(bed.nodeOf("second")).isEmpty();

    bed.client().pods().inNamespace(bed.namespace()).withName("first").withGracePeriod(0).delete();

    bed.awaitBound("second");
  }

  @Test
  void keepsPodsOffANodeOverItsCpuThresholdAndPrefersTheLeastLoaded() {
    String prefix = "ks-" + bed.run() + "-l";
    String hot = prefix + "-0";
    String busy = prefix + "-1";
    String idle = prefix + "-2";
    // Of 8 CPUs: 7 used is over the 65 % threshold; 3 and 1 are not. Reported before the nodes
    // join the pool, so the scheduler knows the load before any pod can go there.
    reportUsage(hot, "7");
    reportUsage(busy, "3");
    reportUsage(idle, "1");
    addNodes("load", 3, prefix);

    Pod first = bed.client().resource(pod("least-loaded", "load", "1")).create();
    assertThat(bed.awaitBound(first.getMetadata().getName()).getSpec().getNodeName()).isEqualTo(idle);

    Pod pinned = pod("pinned-to-hot", "load", "1");
    pinned.getSpec().getNodeSelector().put("kubernetes.io/hostname", hot);
    bed.client().resource(pinned).create();
    assertThat(bed.awaitUnschedulable("pinned-to-hot", Duration.ofSeconds(30)))
        .contains("node(s) cpu usage exceed threshold");
    assertThat(bed.nodeOf("pinned-to-hot")).isEmpty();

    reportUsage(hot, "2");

    assertThat(bed.awaitBound("pinned-to-hot").getSpec().getNodeName()).isEqualTo(hot);
  }

  /** A NodeMetric measured now: {@code cpu} in use of the node's CPUs, 4Gi of memory. */
  private static void reportUsage(String node, String cpu) {
    NodeMetricInfo info = new NodeMetricInfo();
    ResourceMap usage = new ResourceMap();
    usage.setResources(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("4Gi")));
    info.setNodeUsage(usage);
    NodeMetricStatus status = new NodeMetricStatus();
    status.setUpdateTime(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    status.setNodeMetric(info);
    var metrics = bed.client().resources(NodeMetric.class);
    if (metrics.withName(node).get() == null) {
      NodeMetric metric = new NodeMetric();
      metric.getMetadata().setName(node);
      metrics.resource(metric).create();
      bed.closeLater(() -> metrics.withName(node).delete());
    }
    metrics
        .withName(node)
        .editStatus(
            m -> {
              m.setStatus(status);
              return m;
            });
  }

  private static double unschedulableAttempts() {
    Counter counter =
        registry.find("scheduler_schedule_attempts").tag("result", "unschedulable").counter();
    return counter == null ? 0 : counter.count();
  }

  /** KWOK nodes of 8 CPUs. */
  private static List<String> addNodes(String pool, int count, String prefix) {
    return bed.addNodes(pool, count, prefix, "--cpu", "8", "--memory", "32Gi");
  }

  private static Pod pod(String name, String pool, String cpu) {
    return bed.pod(name, KoordScheduler.DEFAULT_NAME, pool, cpu);
  }

  private static Pod withQuota(Pod pod, String quota) {
    return new PodBuilder(pod).editMetadata().addToLabels(WellKnown.QUOTA_NAME, quota).endMetadata().build();
  }

  private static ElasticQuota elasticQuota(String name) {
    ElasticQuota quota = new ElasticQuota();
    quota.getMetadata().setName(name);
    quota.getMetadata().setNamespace(bed.namespace());
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    spec.setMin(new HashMap<>(Map.of("cpu", new Quantity("1"), "memory", new Quantity("4Gi"))));
    spec.setMax(new HashMap<>(Map.of("cpu", new Quantity("2"), "memory", new Quantity("8Gi"))));
    quota.setSpec(spec);
    return quota;
  }
}
