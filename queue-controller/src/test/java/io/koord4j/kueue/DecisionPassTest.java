package io.koord4j.kueue;

import static io.koord4j.kueue.KueueFixtures.CHECK;
import static io.koord4j.kueue.KueueFixtures.NOW;
import static io.koord4j.kueue.KueueFixtures.cluster;
import static io.koord4j.kueue.KueueFixtures.gpuNode;
import static io.koord4j.kueue.KueueFixtures.gpuPod;
import static io.koord4j.kueue.KueueFixtures.waiting;
import static io.koord4j.kueue.KueueFixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DecisionPassTest {
  private static final CheckSettings SETTINGS = new CheckSettings(Duration.ofMinutes(5), 60);
  private static final Instant SINCE = NOW.minusSeconds(30);

  @Test
  void gangThatFitsIsReadyWithGangAnnotations() {
    Workload job = workload("train", 2, 8, AdmissionCheckState.PENDING, SINCE);

    DecisionPass.Result result = DecisionPass.run(
        cluster(List.of(gpuNode("a", 8), gpuNode("b", 8)), List.of()), List.of(waiting(job)), SETTINGS, NOW);

    AdmissionCheckState check = onlyWrite(result);
    assertThat(check.getName()).isEqualTo(CHECK);
    assertThat(check.getState()).isEqualTo(AdmissionCheckState.READY);
    assertThat(check.getMessage()).isEqualTo("all 2 pods fit now: 1 on a, 1 on b");
    assertThat(check.getLastTransitionTime()).as("the state changed").isEqualTo("2025-01-01T12:00:00Z");
    assertThat(check.getRetryCount()).as("Kueue's field is not ours to write").isNull();
    assertThat(check.getPodSetUpdates()).singleElement().satisfies(update -> {
      assertThat(update.getName()).isEqualTo("main");
      assertThat(update.getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
          "gang.scheduling.koordinator.sh/name", "train",
          "gang.scheduling.koordinator.sh/min-available", "2"));
    });
    assertThat(result.nextPass()).isEmpty();
  }

  @Test
  void gangThatWaitsForRoomIsPendingNamingWhatIsMissingUntilRetry() {
    Workload job = workload("train", 2, 8, AdmissionCheckState.PENDING, SINCE);

    DecisionPass.Result result = DecisionPass.run(
        cluster(List.of(gpuNode("a", 8), gpuNode("b", 8)), List.of(gpuPod("holder", "b", 4))),
        List.of(waiting(job)), SETTINGS, NOW);

    AdmissionCheckState check = onlyWrite(result);
    assertThat(check.getState()).isEqualTo(AdmissionCheckState.PENDING);
    assertThat(check.getMessage())
        .startsWith("waiting for room: pod set main: 1 of 2 pods placed")
        .contains("node b");
    assertThat(check.getLastTransitionTime()).as("still Pending: Kueue's time stays").isEqualTo(SINCE.toString());
    assertThat(check.getPodSetUpdates()).isNull();
    assertThat(result.nextPass()).contains(SINCE.plus(SETTINGS.waitBeforeRetry()));
  }

  @Test
  void pendingTooLongTurnsRetryWithRequeueDelay() {
    Workload job = workload("train", 2, 8, AdmissionCheckState.PENDING, NOW.minus(SETTINGS.waitBeforeRetry()));

    DecisionPass.Result result = DecisionPass.run(
        cluster(List.of(gpuNode("a", 8), gpuNode("b", 8)), List.of(gpuPod("holder", "b", 4))),
        List.of(waiting(job)), SETTINGS, NOW);

    AdmissionCheckState check = onlyWrite(result);
    assertThat(check.getState()).isEqualTo(AdmissionCheckState.RETRY);
    assertThat(check.getRequeueAfterSeconds()).isEqualTo(60);
    assertThat(check.getMessage()).startsWith("no room after 300 s, retry in 60 s; waiting for room: ");
    assertThat(check.getLastTransitionTime()).isEqualTo(NOW.toString());
  }

  @Test
  void gangBiggerThanTheClusterIsRejected() {
    Workload job = workload("huge", 3, 8, AdmissionCheckState.PENDING, SINCE);

    DecisionPass.Result result = DecisionPass.run(
        cluster(List.of(gpuNode("a", 8), gpuNode("b", 8)), List.of(gpuPod("holder", "b", 4))),
        List.of(waiting(job)), SETTINGS, NOW);

    AdmissionCheckState check = onlyWrite(result);
    assertThat(check.getState()).isEqualTo(AdmissionCheckState.REJECTED);
    assertThat(check.getMessage())
        .startsWith("the gang does not fit even on empty nodes: pod set main: 2 of 3 pods placed");
  }

  @Test
  void nodesOutsideThePodsNodeSelectorDoNotCount() {
    Workload job = workload("train", 1, 8, AdmissionCheckState.PENDING, SINCE);
    var elsewhere = gpuNode("elsewhere", 8);
    elsewhere.getMetadata().setLabels(Map.of("pool", "cpu"));

    DecisionPass.Result result = DecisionPass.run(
        cluster(List.of(elsewhere), List.of()), List.of(waiting(job)), SETTINGS, NOW);

    assertThat(onlyWrite(result).getState()).isEqualTo(AdmissionCheckState.REJECTED);
  }

  @Test
  void invalidPodTemplateIsRejectedNamingTheField() {
    Workload job = workload("odd", 1, 8, AdmissionCheckState.PENDING, SINCE);
    job.getSpec().getPodSets().get(0).getTemplate().getSpec().getContainers().get(0).getResources()
        .getRequests().put("koordinator.sh/gpu", new Quantity("150"));

    AdmissionCheckState check = onlyWrite(DecisionPass.run(
        cluster(List.of(gpuNode("a", 8)), List.of()), List.of(waiting(job)), SETTINGS, NOW));

    assertThat(check.getState()).isEqualTo(AdmissionCheckState.REJECTED);
    assertThat(check.getMessage()).startsWith("the pods can never be placed: ").contains("koordinator.sh/gpu");
  }

  @Test
  void twoGangsNeverShareTheSameFreeGpusAndTheOlderGoesFirst() {
    Workload older = workload("older", 1, 8, AdmissionCheckState.PENDING, SINCE);
    Workload newer = workload("newer", 1, 8, AdmissionCheckState.PENDING, SINCE);
    newer.getMetadata().setCreationTimestamp("2025-01-01T11:30:00Z");

    DecisionPass.Result result = DecisionPass.run(
        cluster(List.of(gpuNode("a", 8)), List.of()), List.of(waiting(newer), waiting(older)), SETTINGS, NOW);

    assertThat(result.writes()).extracting(DecisionPass.Write::name).containsExactly("older", "newer");
    assertThat(result.writes()).extracting(write -> write.checks().get(0).getState())
        .containsExactly(AdmissionCheckState.READY, AdmissionCheckState.PENDING);
  }

  @Test
  void readyGangWhosePodsAreNotBoundYetKeepsItsRoom() {
    Workload started = workload("started", 1, 8, AdmissionCheckState.READY, SINCE);
    Workload next = workload("next", 1, 8, AdmissionCheckState.PENDING, SINCE);

    DecisionPass.Result result = DecisionPass.run(
        cluster(List.of(gpuNode("a", 8)), List.of()), List.of(waiting(started), waiting(next)), SETTINGS, NOW);

    assertThat(onlyWrite(result).getState()).isEqualTo(AdmissionCheckState.PENDING);
    assertThat(result.writes()).extracting(DecisionPass.Write::name).containsExactly("next");
  }

  @Test
  void readyIsNeverDowngradedWhileItsOwnPodsFillTheNodes() {
    Workload admitted = workload("admitted", 2, 8, AdmissionCheckState.READY, SINCE);

    DecisionPass.Result result = DecisionPass.run(
        cluster(List.of(gpuNode("a", 8), gpuNode("b", 8)),
            List.of(gpuPod("admitted-0", "a", 8), gpuPod("admitted-1", "b", 8))),
        List.of(waiting(admitted)), SETTINGS, NOW);

    assertThat(result.writes()).isEmpty();
  }

  @Test
  void theSameClusterGivesTheSameStateSoARestartWritesNothing() {
    Workload job = workload("train", 2, 8, AdmissionCheckState.PENDING, SINCE);
    ClusterSnapshot cluster = cluster(List.of(gpuNode("a", 8), gpuNode("b", 8)), List.of(gpuPod("holder", "b", 4)));
    AdmissionCheckState written = onlyWrite(DecisionPass.run(cluster, List.of(waiting(job)), SETTINGS, NOW));
    AdmissionCheckState stored = KueueFixtures.ours(job);
    stored.setMessage(written.getMessage());
    stored.setLastTransitionTime(written.getLastTransitionTime());

    DecisionPass.Result afterRestart = DecisionPass.run(cluster, List.of(waiting(job)), SETTINGS, NOW.plusSeconds(60));

    assertThat(afterRestart.writes()).isEmpty();
    assertThat(afterRestart.nextPass()).as("Retry stays due when it was").contains(SINCE.plus(SETTINGS.waitBeforeRetry()));
  }

  private static AdmissionCheckState onlyWrite(DecisionPass.Result result) {
    assertThat(result.writes()).hasSize(1);
    DecisionPass.Write write = result.writes().get(0);
    assertThat(write.namespace()).isEqualTo("team");
    assertThat(write.checks()).as("only our entries").extracting(AdmissionCheckState::getName).containsExactly(CHECK);
    return write.checks().get(0);
  }
}
