package io.koord4j.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.Workload;
import io.koord4j.scheduler.NodeFitCases;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The gang-feasibility check's side of the one-fit-truth contract: a one-pod gang fits a
 * one-node cluster exactly when koord-scheduler would place the pod there ({@link NodeFitCases};
 * the scheduler's side is {@code OneFitTruthContractTest}).
 */
class GangFitContractTest {
  private static final CheckConfig ANYWHERE =
      CheckConfig.anywhere(new CheckSettings(Duration.ofMinutes(5), 60));

  static List<NodeFitCases> cases() {
    return NodeFitCases.all();
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
}
