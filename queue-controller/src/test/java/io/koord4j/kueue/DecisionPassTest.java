package io.koord4j.kueue;

import static io.koord4j.kueue.KueueFixtures.CHECK;
import static io.koord4j.kueue.KueueFixtures.NOW;
import static io.koord4j.kueue.KueueFixtures.cluster;
import static io.koord4j.kueue.KueueFixtures.gpuNode;
import static io.koord4j.kueue.KueueFixtures.gpuPod;
import static io.koord4j.kueue.KueueFixtures.waiting;
import static io.koord4j.kueue.KueueFixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
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

    DecisionPass.Result result = run(
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

    DecisionPass.Result result = run(
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

    DecisionPass.Result result = run(
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

    DecisionPass.Result result = run(
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

    DecisionPass.Result result = run(
        cluster(List.of(elsewhere), List.of()), List.of(waiting(job)), SETTINGS, NOW);

    assertThat(onlyWrite(result).getState()).isEqualTo(AdmissionCheckState.REJECTED);
  }

  @Test
  void invalidPodTemplateIsRejectedNamingTheField() {
    Workload job = workload("odd", 1, 8, AdmissionCheckState.PENDING, SINCE);
    job.getSpec().getPodSets().get(0).getTemplate().getSpec().getContainers().get(0).getResources()
        .getRequests().put("koordinator.sh/gpu", new Quantity("150"));

    AdmissionCheckState check = onlyWrite(run(
        cluster(List.of(gpuNode("a", 8)), List.of()), List.of(waiting(job)), SETTINGS, NOW));

    assertThat(check.getState()).isEqualTo(AdmissionCheckState.REJECTED);
    assertThat(check.getMessage()).startsWith("the pods can never be placed: ").contains("koordinator.sh/gpu");
  }

  @Test
  void twoGangsNeverShareTheSameFreeGpusAndTheOlderGoesFirst() {
    Workload older = workload("older", 1, 8, AdmissionCheckState.PENDING, SINCE);
    Workload newer = workload("newer", 1, 8, AdmissionCheckState.PENDING, SINCE);
    newer.getMetadata().setCreationTimestamp("2025-01-01T11:30:00Z");

    DecisionPass.Result result = run(
        cluster(List.of(gpuNode("a", 8)), List.of()), List.of(waiting(newer), waiting(older)), SETTINGS, NOW);

    assertThat(result.writes()).extracting(DecisionPass.Write::name).containsExactly("older", "newer");
    assertThat(result.writes()).extracting(write -> write.checks().get(0).getState())
        .containsExactly(AdmissionCheckState.READY, AdmissionCheckState.PENDING);
  }

  @Test
  void readyGangWhosePodsAreNotBoundYetKeepsItsRoom() {
    Workload started = workload("started", 1, 8, AdmissionCheckState.READY, SINCE);
    Workload next = workload("next", 1, 8, AdmissionCheckState.PENDING, SINCE);

    DecisionPass.Result result = run(
        cluster(List.of(gpuNode("a", 8)), List.of()), List.of(waiting(started), waiting(next)), SETTINGS, NOW);

    assertThat(onlyWrite(result).getState()).isEqualTo(AdmissionCheckState.PENDING);
    assertThat(result.writes()).extracting(DecisionPass.Write::name).containsExactly("next");
  }

  @Test
  void readyIsNeverDowngradedWhileItsOwnPodsFillTheNodes() {
    Workload admitted = workload("admitted", 2, 8, AdmissionCheckState.READY, SINCE);

    DecisionPass.Result result = run(
        cluster(List.of(gpuNode("a", 8), gpuNode("b", 8)),
            List.of(gpuPod("admitted-0", "a", 8), gpuPod("admitted-1", "b", 8))),
        List.of(waiting(admitted)), SETTINGS, NOW);

    assertThat(result.writes()).isEmpty();
  }

  @Test
  void theSameClusterGivesTheSameStateSoARestartWritesNothing() {
    Workload job = workload("train", 2, 8, AdmissionCheckState.PENDING, SINCE);
    ClusterSnapshot cluster = cluster(List.of(gpuNode("a", 8), gpuNode("b", 8)), List.of(gpuPod("holder", "b", 4)));
    AdmissionCheckState written = onlyWrite(run(cluster, List.of(waiting(job)), SETTINGS, NOW));
    AdmissionCheckState stored = KueueFixtures.ours(job);
    stored.setMessage(written.getMessage());
    stored.setLastTransitionTime(written.getLastTransitionTime());

    DecisionPass.Result afterRestart = run(cluster, List.of(waiting(job)), SETTINGS, NOW.plusSeconds(60));

    assertThat(afterRestart.writes()).isEmpty();
    assertThat(afterRestart.nextPass()).as("Retry stays due when it was").contains(SINCE.plus(SETTINGS.waitBeforeRetry()));
  }

  @Test
  void inOneDomainTheGangGetsTheNodeSelectorOfTheDomainWhereItFits() {
    Workload job = workload("train", 2, 8, AdmissionCheckState.PENDING, SINCE);
    ClusterSnapshot cluster = twoRacks(List.of(gpuPod("holder", "a2", 1)));

    AdmissionCheckState check = onlyWrite(run(cluster, QUOTA_FREE, List.of(waiting(job)), IN_ONE_RACK, NOW));

    assertThat(check.getState()).isEqualTo(AdmissionCheckState.READY);
    assertThat(check.getMessage()).isEqualTo("all 2 pods fit now in rack=r2: 1 on b1, 1 on b2");
    assertThat(check.getPodSetUpdates()).singleElement()
        .satisfies(update -> assertThat(update.getNodeSelector()).containsExactly(Map.entry("rack", "r2")));
  }

  @Test
  void inOneDomainTheGangWaitsWhenOnlyTheDomainsTogetherHaveRoom() {
    Workload job = workload("train", 2, 8, AdmissionCheckState.PENDING, SINCE);
    ClusterSnapshot cluster = twoRacks(List.of(gpuPod("holder-a", "a2", 1), gpuPod("holder-b", "b2", 1)));

    AdmissionCheckState check = onlyWrite(run(cluster, QUOTA_FREE, List.of(waiting(job)), IN_ONE_RACK, NOW));

    assertThat(check.getState()).isEqualTo(AdmissionCheckState.PENDING);
    assertThat(check.getMessage())
        .startsWith("waiting for room: no rack domain has room for the whole gang: rack=r1: pod set main: 1 of 2")
        .contains("; rack=r2: pod set main: 1 of 2");
  }

  @Test
  void inOneDomainAGangNoDomainCanHoldIsRejected() {
    Workload job = workload("train", 3, 8, AdmissionCheckState.PENDING, SINCE);
    ClusterSnapshot cluster = twoRacks(List.of());

    AdmissionCheckState check = onlyWrite(run(cluster, QUOTA_FREE, List.of(waiting(job)), IN_ONE_RACK, NOW));

    assertThat(check.getState()).isEqualTo(AdmissionCheckState.REJECTED);
    assertThat(check.getMessage()).isEqualTo("the gang does not fit in any single rack domain even on empty nodes");
  }

  @Test
  void nodeScopeKeepsTheGangOnOneNode() {
    Workload job = workload("train", 2, 4, AdmissionCheckState.PENDING, SINCE);
    ClusterSnapshot cluster = cluster(List.of(named(gpuNode("a", 8)), named(gpuNode("b", 8))),
        List.of(gpuPod("holder", "a", 1)));
    CheckConfig oneNode = new CheckConfig(CheckConfig.HOSTNAME_LABEL, SETTINGS);

    AdmissionCheckState check = onlyWrite(run(cluster, QUOTA_FREE, List.of(waiting(job)), oneNode, NOW));

    assertThat(check.getMessage()).isEqualTo("all 2 pods fit now in kubernetes.io/hostname=b: 2 on b");
    assertThat(check.getPodSetUpdates().get(0).getNodeSelector())
        .containsExactly(Map.entry("kubernetes.io/hostname", "b"));
  }

  @Test
  void aGangOfAQuotaWaitsForQuotaRoomNamingQuotaResourceAndAmounts() {
    Workload job = inQuota(workload("train", 2, 8, AdmissionCheckState.PENDING, SINCE), "team-a");
    List<Node> nodes = List.of(gpuNode("a", 8), gpuNode("b", 8));
    Pod holder = gpuPod("holder", "a", 4);
    holder.getMetadata().setLabels(Map.of("quota.scheduling.koordinator.sh/name", "team-a"));
    QuotaRoom quotas = QuotaRoom.of(List.of(quota("team-a", "16", "16")), nodes, List.of(holder));

    AdmissionCheckState check = onlyWrite(run(cluster(nodes, List.of(holder)), quotas, List.of(waiting(job)),
        CheckConfig.anywhere(SETTINGS), NOW));

    assertThat(check.getState()).isEqualTo(AdmissionCheckState.PENDING);
    assertThat(check.getMessage())
        .isEqualTo("waiting for room: quota \"team-a\" has 12 of nvidia.com/gpu available, 16 requested");
  }

  @Test
  void aGangLargerThanItsQuotasMaxIsRejected() {
    Workload job = inQuota(workload("train", 2, 8, AdmissionCheckState.PENDING, SINCE), "team-a");
    List<Node> nodes = List.of(gpuNode("a", 8), gpuNode("b", 8));
    QuotaRoom quotas = QuotaRoom.of(List.of(quota("team-a", "8", "8")), nodes, List.of());

    AdmissionCheckState check = onlyWrite(run(cluster(nodes, List.of()), quotas, List.of(waiting(job)),
        CheckConfig.anywhere(SETTINGS), NOW));

    assertThat(check.getState()).isEqualTo(AdmissionCheckState.REJECTED);
    assertThat(check.getMessage()).isEqualTo(
        "the gang asks more than quota \"team-a\" may ever hold: 16 of nvidia.com/gpu requested, max 8");
  }

  @Test
  void twoGangsOfOneQuotaNeverShareTheSameQuotaRoom() {
    Workload older = inQuota(workload("older", 1, 8, AdmissionCheckState.PENDING, SINCE), "team-a");
    Workload newer = inQuota(workload("newer", 1, 8, AdmissionCheckState.PENDING, SINCE), "team-a");
    newer.getMetadata().setCreationTimestamp("2025-01-01T11:30:00Z");
    List<Node> nodes = List.of(gpuNode("a", 8), gpuNode("b", 8));
    QuotaRoom quotas = QuotaRoom.of(List.of(quota("team-a", "8", "8")), nodes, List.of());

    DecisionPass.Result result = run(cluster(nodes, List.of()), quotas, List.of(waiting(newer), waiting(older)),
        CheckConfig.anywhere(SETTINGS), NOW);

    assertThat(result.writes()).extracting(write -> write.checks().get(0).getState())
        .containsExactly(AdmissionCheckState.READY, AdmissionCheckState.PENDING);
    assertThat(result.writes().get(1).checks().get(0).getMessage()).contains("quota \"team-a\" has 0 of nvidia.com/gpu");
  }

  private static final CheckConfig IN_ONE_RACK = new CheckConfig("rack", SETTINGS);
  private static final QuotaRoom QUOTA_FREE = QuotaRoom.of(List.of(), List.of(), List.of());

  private static DecisionPass.Result run(
      ClusterSnapshot cluster, List<WaitingWorkload> waiting, CheckSettings settings, Instant now) {
    return run(cluster, QuotaRoom.of(List.of(), List.of(), List.of()), waiting, CheckConfig.anywhere(settings), now);
  }

  private static DecisionPass.Result run(
      ClusterSnapshot cluster, QuotaRoom quotas, List<WaitingWorkload> waiting, CheckConfig config, Instant now) {
    return DecisionPass.run(cluster, quotas, waiting, Map.of(CHECK, config), now);
  }

  /** Nodes a1, a2 in rack r1 and b1, b2 in rack r2, of 8 GPUs each. */
  private static ClusterSnapshot twoRacks(List<Pod> pods) {
    return cluster(
        List.of(inRack(gpuNode("a1", 8), "r1"), inRack(gpuNode("a2", 8), "r1"),
            inRack(gpuNode("b1", 8), "r2"), inRack(gpuNode("b2", 8), "r2")),
        pods);
  }

  private static Node inRack(Node node, String rack) {
    node.getMetadata().getLabels().put("rack", rack);
    return node;
  }

  private static Node named(Node node) {
    node.getMetadata().getLabels().put(CheckConfig.HOSTNAME_LABEL, node.getMetadata().getName());
    return node;
  }

  private static Workload inQuota(Workload workload, String quota) {
    workload.getSpec().getPodSets().get(0).getTemplate().setMetadata(new ObjectMetaBuilder()
        .addToLabels("quota.scheduling.koordinator.sh/name", quota).build());
    return workload;
  }

  private static ElasticQuota quota(String name, String minGpus, String maxGpus) {
    ElasticQuota quota = new ElasticQuota();
    quota.getMetadata().setName(name);
    quota.getMetadata().setNamespace("koordinator-system");
    quota.setSpec(new ElasticQuotaSpec());
    quota.getSpec().setMin(Map.of("nvidia.com/gpu", new Quantity(minGpus)));
    quota.getSpec().setMax(Map.of("nvidia.com/gpu", new Quantity(maxGpus)));
    return quota;
  }

  private static AdmissionCheckState onlyWrite(DecisionPass.Result result) {
    assertThat(result.writes()).hasSize(1);
    DecisionPass.Write write = result.writes().get(0);
    assertThat(write.namespace()).isEqualTo("team");
    assertThat(write.checks()).as("only our entries").extracting(AdmissionCheckState::getName).containsExactly(CHECK);
    return write.checks().get(0);
  }
}
