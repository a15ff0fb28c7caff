package io.koord4j.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scheduler's side of the one-fit-truth contract: its framework, with koord-scheduler's node
 * filters, decides every {@link NodeFitCases} case as the table says. The gang-feasibility check
 * runs the same table ({@code GangFitContractTest} in the manager).
 */
class OneFitTruthContractTest {
  private static final ScheduledExecutorService POOL = Executors.newSingleThreadScheduledExecutor();

  private static final Framework FRAMEWORK =
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

    assertThat(FRAMEWORK.preFilter(state, pod).isSuccess()).isTrue();
    Map<String, Status> statuses = FRAMEWORK.filterAll(state, pod, List.of(NodeInfo.of(fit.node())));

    assertThat(statuses.get("node").isSuccess()).isEqualTo(fit.fits());
  }
}
