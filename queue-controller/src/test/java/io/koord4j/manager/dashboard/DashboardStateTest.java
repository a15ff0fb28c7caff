package io.koord4j.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.visibility.Fixtures;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DashboardStateTest {
  private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");
  private static final String SHORTAGE = "quota \"nlp\" has 2 of cpu available, 8 requested";

  @Test
  void eachQueueListsItsWaitingJobsInQueueOrderWithThePluginsReasons() {
    QueueUnit running = Fixtures.withStatus(Fixtures.unit("done", "nlp", "nlp", 0, Fixtures.CREATED, 1, "1", 0),
        QueueUnitPhase.RUNNING, null, "admitted");
    QueueUnit second = Fixtures.withStatus(Fixtures.unit("second", "nlp", "nlp", 0, Fixtures.CREATED, 2, "4", 0),
        QueueUnitPhase.ENQUEUED, 2, SHORTAGE);
    QueueUnit first = Fixtures.withStatus(Fixtures.unit("first", "nlp", "nlp", 5, "2026-01-01T00:30:00Z", 2, "4", 0),
        QueueUnitPhase.ENQUEUED, 1, SHORTAGE);

    DashboardState state = DashboardState.of(inputs(List.of(running, second, first)), NOW, 10);

    DashboardState.QueueView nlp = state.queues().get(0);
    assertThat(nlp.summary().pending()).isEqualTo(2);
    assertThat(nlp.waiting()).extracting(DashboardState.WaitingJob::name).containsExactly("first", "second");
    assertThat(nlp.waiting().get(1).reasons()).containsExactly(
        SHORTAGE,
        "position 2 of 2 in queue nlp, behind 1 higher-priority unit",
        "quota nlp: cpu: needs 8, runtime 6 (min 4, borrows 2), used 4, max 10",
        "quota research: cpu: needs 8, runtime 8 (= min), used 7, max 16");
    assertThat(state.quotas()).extracting(q -> q.name()).containsExactly("research", "nlp");
    assertThat(state.gpus()).singleElement().satisfies(node -> assertThat(node.free()).isEqualTo(6));
  }

  @Test
  void aLongQueueListsItsHeadAndCountsTheRest() {
    List<QueueUnit> units = java.util.stream.IntStream.range(0, 5)
        .mapToObj(i -> Fixtures.withStatus(Fixtures.unit("job-" + i, "nlp", "nlp", 0, Fixtures.CREATED, 1, "1", 0),
            QueueUnitPhase.ENQUEUED, i + 1, SHORTAGE))
        .toList();

    DashboardState.QueueView nlp = DashboardState.of(inputs(units), NOW, 2).queues().get(0);

    assertThat(nlp.pendingTotal()).isEqualTo(5);
    assertThat(nlp.waiting()).extracting(DashboardState.WaitingJob::name).containsExactly("job-0", "job-1");
  }

  @Test
  void theJsonCarriesNamesFiguresAndReasonsButNoPodSpecs() {
    QueueUnit waiting = Fixtures.withStatus(Fixtures.unit("train", "nlp", "nlp", 0, Fixtures.CREATED, 1, "1", 0),
        QueueUnitPhase.ENQUEUED, 1, SHORTAGE);

    String json = Serialization.asJson(DashboardState.of(inputs(List.of(waiting)), NOW, 10));

    assertThat(json).contains("\"name\":\"train\"").contains(SHORTAGE.replace("\"", "\\\""))
        .contains("team/trainer-0").doesNotContain("containers").doesNotContain("\"work\"");
  }

  @Test
  void recentChangesListAdmissionsAndPreemptionsNewestFirst() {
    QueueUnit admitted = Fixtures.withStatus(Fixtures.unit("early", "nlp", "nlp", 0, Fixtures.CREATED, 1, "1", 0),
        QueueUnitPhase.RUNNING, null, "admitted");
    admitted.getStatus().setConditions(List.of(
        condition(QueueUnitConditions.ADMITTED, "True", "Admitted", "2026-01-01T00:10:00Z", "admitted by quota \"nlp\"")));
    QueueUnit preempted = Fixtures.withStatus(Fixtures.unit("late", "nlp", "nlp", 0, Fixtures.CREATED, 1, "1", 0),
        QueueUnitPhase.TIMEOUT_BACKOFF, null, "preempted");
    preempted.getStatus().setConditions(List.of(
        condition(QueueUnitConditions.ADMITTED, "False", "Preempted", "2026-01-01T00:20:00Z", "x"),
        condition(QueueUnitConditions.EVICTED, "True", "Preempted", "2026-01-01T00:20:00Z", "preempted for team/urgent")));

    assertThat(DashboardState.recent(List.of(admitted, preempted)))
        .extracting(DashboardState.Change::what, DashboardState.Change::name, DashboardState.Change::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("preempted", "late", "preempted for team/urgent"),
            org.assertj.core.groups.Tuple.tuple("admitted", "early", "admitted by quota \"nlp\""));
  }

  private static Condition condition(String type, String status, String reason, String at, String message) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason(reason)
        .withLastTransitionTime(at).withMessage(message).build();
  }

  private static DashboardState.Inputs inputs(List<QueueUnit> units) {
    Queue queue = new Queue();
    queue.getMetadata().setName("nlp");
    queue.getMetadata().setNamespace("koord-queue");
    queue.setSpec(new QueueSpec());
    return new DashboardState.Inputs(List.of(queue), units,
        List.of(Fixtures.quota("nlp", "research", false, "4", "10", "6", "4"),
            Fixtures.quota("research", null, true, "8", "16", "8", "7")),
        List.of(Fixtures.gpuNode("gpu-a", 8)), List.of(), List.of(Fixtures.gpuHolder("trainer-0", "gpu-a", 0, 1)));
  }
}
