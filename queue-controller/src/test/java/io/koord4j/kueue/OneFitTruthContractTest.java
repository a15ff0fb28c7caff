package io.koord4j.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.manager.admission.UnitPlacements;
import io.koord4j.manager.admission.UnitSpecs;
import io.koord4j.queue.core.AdmissionCore;
import io.koord4j.queue.core.AdmissionPass;
import io.koord4j.queue.core.QueueConfig;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.NodeFitCases;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.DefaultBinder;
import io.koord4j.scheduler.plugins.NodeAffinity;
import io.koord4j.scheduler.plugins.NodeResourcesFit;
import io.koord4j.scheduler.plugins.NodeUnschedulable;
import io.koord4j.scheduler.plugins.TaintToleration;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One fit truth: koord-scheduler's framework with its node filters, the gang-feasibility check and
 * the admission loop's own gang admission decide every {@link NodeFitCases} case (a one-pod gang,
 * a one-node cluster) as the table says.
 */
class OneFitTruthContractTest {
  private static final CheckConfig ANYWHERE =
      CheckConfig.anywhere(new CheckSettings(Duration.ofMinutes(5), 60));
  private static final ScheduledExecutorService POOL = Executors.newSingleThreadScheduledExecutor();
  private static final Framework SCHEDULER =
      new Framework(
          List.of(
              new NodeUnschedulable(),
              new NodeAffinity(),
              new TaintToleration(),
              new NodeResourcesFit(),
              new DefaultBinder((pod, node) -> {})),
          Map.of(),
          POOL,
          1,
          new WaitingPods(POOL));

  static List<NodeFitCases> cases() {
    return NodeFitCases.all();
  }

  @AfterAll
  static void stopPool() {
    POOL.shutdownNow();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theSchedulerDecidesEveryCaseAsTheTableSays(NodeFitCases fit) {
    Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("default").endMetadata()
        .withSpec(fit.pod()).build();
    CycleState state = new CycleState();

    assertThat(SCHEDULER.preFilter(state, pod).isSuccess()).isTrue();
    Map<String, Status> statuses = SCHEDULER.filterAll(state, pod, List.of(NodeInfo.of(fit.node())));

    assertThat(statuses.get("node").isSuccess()).isEqualTo(fit.fits());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theCheckDecidesEveryCaseAsTheScheduler(NodeFitCases fit) {
    Workload workload =
        KueueFixtures.workload("train", 1, 0, AdmissionCheckState.PENDING, KueueFixtures.NOW);
    workload.getSpec().getPodSets().get(0).getTemplate().setSpec(fit.pod());
    ClusterSnapshot cluster = KueueFixtures.cluster(List.of(fit.node()), List.of());

    GangVerdict verdict = GangFit.decide(cluster, QuotaRoom.UNCHECKED, workload, ANYWHERE).verdict();

    assertThat(verdict.state().equals(AdmissionCheckState.READY)).as(verdict.message()).isEqualTo(fit.fits());
  }

  /** With quota to spare, the loop's core admits the unit exactly when its pod fits the node. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theAdmissionLoopDecidesEveryCaseAsTheScheduler(NodeFitCases fit) {
    QueueUnit unit = unit(fit);
    String id = UnitSpecs.id(unit);
    UnitPlacements placements = new UnitPlacements(Map.of(id, unit));
    placements.node(fit.node());
    AdmissionCore core = new AdmissionCore(new SplittableRandom(1));
    core.setPlacementCheck(placements);
    ResourceVector plenty = ResourceVector.of("cpu", 1_000_000, "memory", 1L << 50);
    core.setClusterTotal(plenty);
    core.upsertQuota(QuotaSpec.leaf("team", "", plenty, plenty));
    core.upsertQueue(QueueConfig.of("team/team"));
    core.upsertUnit(UnitSpecs.from(unit, Map.of("team", teamQuota()), Map.of(), 0));

    AdmissionPass pass = core.pass(KueueFixtures.NOW);

    assertThat(pass.admitted().contains(id))
        .as(pass.waiting().containsKey(id) ? pass.waiting().get(id).reason().message() : "admitted")
        .isEqualTo(fit.fits());
  }

  /** The quota team, which lives in namespace team and so serves its units. */
  private static ElasticQuota teamQuota() {
    ElasticQuota quota = new ElasticQuota();
    quota.setMetadata(new ObjectMetaBuilder().withName("team").withNamespace("team").build());
    return quota;
  }

  /** A unit of one pod of the case's spec, in namespace team, naming queue team. */
  private static QueueUnit unit(NodeFitCases fit) {
    PodSet podSet = new PodSet();
    podSet.setName("main");
    podSet.setCount(1);
    PodTemplateSpec template = new PodTemplateSpec();
    template.setSpec(fit.pod());
    podSet.setTemplate(template);
    QueueUnitSpec spec = new QueueUnitSpec();
    spec.setQueue("team");
    spec.setPodSet(List.of(podSet));
    QueueUnit unit = new QueueUnit();
    unit.setMetadata(new ObjectMetaBuilder().withName("train").withNamespace("team").withGeneration(1L)
        .withCreationTimestamp("2025-01-01T11:00:00Z").build());
    unit.setSpec(spec);
    return unit;
  }
}
