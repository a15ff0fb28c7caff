package io.koord4j.visibility;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WhyTest {
  private static final String SHORTAGE = "quota \"nlp\" has 2 of cpu available, 8 requested";

  @Test
  void aQuotaShortageShowsTheCoresVerdictAndTheFiguresUpTheQuotaChain() {
    QueueUnit unit = Fixtures.withStatus(Fixtures.unit("train", "nlp", "nlp", 0, Fixtures.CREATED, 2, "4", 0),
        QueueUnitPhase.ENQUEUED, 1, SHORTAGE);

    Why.Answer answer = Why.explain(facts(unit, List.of(unit)));

    assertThat(answer.waiting()).isTrue();
    assertThat(answer.reasons()).containsExactly(
        SHORTAGE,
        "position 1 of 1 in queue nlp, at the head",
        "quota nlp: cpu: needs 8, runtime 6 (min 4, borrows 2), used 4, max 10",
        "quota research: cpu: needs 8, runtime 8 (= min), used 7, max 16");
  }

  @Test
  void aUnitBehindHigherPriorityOnesSaysHowManyAndWhere() {
    QueueUnit urgent1 = Fixtures.withStatus(Fixtures.unit("urgent-1", "nlp", "nlp", 10, "2026-01-01T00:00:05Z", 1, "1", 0), QueueUnitPhase.ENQUEUED, 1, SHORTAGE);
    QueueUnit urgent2 = Fixtures.withStatus(Fixtures.unit("urgent-2", "nlp", "nlp", 10, "2026-01-01T00:00:06Z", 1, "1", 0), QueueUnitPhase.ENQUEUED, 2, SHORTAGE);
    QueueUnit early = Fixtures.withStatus(Fixtures.unit("early", "nlp", "nlp", 0, Fixtures.CREATED, 1, "1", 0), QueueUnitPhase.ENQUEUED, 3, SHORTAGE);
    QueueUnit late = Fixtures.withStatus(Fixtures.unit("late", "nlp", "nlp", 0, "2026-01-01T00:01:00Z", 1, "1", 0), QueueUnitPhase.ENQUEUED, 4, SHORTAGE);

    Why.Answer answer = Why.explain(facts(late, List.of(late, early, urgent2, urgent1)));

    assertThat(answer.position()).isEqualTo(4);
    assertThat(answer.pending()).isEqualTo(4);
    assertThat(answer.reasons()).contains(
        "position 4 of 4 in queue nlp, behind 2 higher-priority units and 1 earlier unit of priority 0");
    assertThat(Why.explain(facts(urgent2, List.of(late, early, urgent2, urgent1))).reasons())
        .contains("position 2 of 4 in queue nlp, behind 1 earlier unit of priority 10");
  }

  @Test
  void aUnitRequeuedAfterItsPodsWereLateSaysWhyItWasEvicted() {
    QueueUnit unit = Fixtures.withStatus(Fixtures.unit("train", "nlp", "nlp", 0, Fixtures.CREATED, 2, "1", 0),
        QueueUnitPhase.TIMEOUT_BACKOFF, null, "in backoff until 2026-01-01T00:02:00Z after 1 requeue");
    unit.getStatus().setConditions(List.of(evicted("PodsReadyTimeout",
        "evicted: its pods were not all ready within 300 s of admission; requeue 1 at 2026-01-01T00:02:00Z")));

    assertThat(Why.explain(facts(unit, List.of(unit))).reasons()).startsWith(
        "in backoff until 2026-01-01T00:02:00Z after 1 requeue",
        "PodsReadyTimeout: evicted: its pods were not all ready within 300 s of admission;"
            + " requeue 1 at 2026-01-01T00:02:00Z");
  }

  @Test
  void aDeactivatedUnitSaysWhyAndHowToQueueItAgainInsteadOfAPlace() {
    String message = "deactivated: its pods were not all ready within 300 s of admission after 2 requeues, the limit";
    QueueUnit unit = Fixtures.withStatus(Fixtures.unit("train", "nlp", "nlp", 0, Fixtures.CREATED, 2, "1", 0),
        QueueUnitPhase.ENQUEUED, null, message);
    unit.getSpec().setActive(false);
    unit.getStatus().setConditions(List.of(evicted("Deactivated", message)));

    Why.Answer answer = Why.explain(facts(unit, List.of(unit)));

    assertThat(answer.position()).isNull();
    assertThat(answer.reasons()).startsWith(
        message, "inactive: it is not admitted until its spec.active is set to true again");
  }

  @Test
  void aReservedUnitNamesTheAdmissionCheckItWaitsFor() {
    QueueUnit unit = Fixtures.withStatus(Fixtures.unit("train", "nlp", "nlp", 0, Fixtures.CREATED, 1, "1", 0),
        QueueUnitPhase.RESERVED, null, "quota \"nlp\" reserved; waiting for admission checks gang");
    AdmissionCheckState check = new AdmissionCheckState();
    check.setName("gang");
    check.setState(AdmissionCheckState.PENDING);
    check.setMessage("waiting for room: pod set main: 1 of 2 pods placed");
    unit.getStatus().setAdmissionChecks(List.of(check));

    assertThat(Why.explain(facts(unit, List.of(unit))).reasons())
        .contains("admission check gang Pending: waiting for room: pod set main: 1 of 2 pods placed");
  }

  @Test
  void aGpuGangSaysHowManyNodesHaveTheShapeItNeeds() {
    QueueUnit unit = Fixtures.withStatus(Fixtures.unit("train", "nlp", "nlp", 0, Fixtures.CREATED, 3, "1", 8),
        QueueUnitPhase.RESERVED, null, "waiting for admission checks");
    List<GpuNodes.GpuNode> nodes = GpuNodes.of(
        List.of(Fixtures.gpuNode("a", 8), Fixtures.gpuNode("b", 8), Fixtures.gpuNode("c", 8)),
        List.of(), List.of(Fixtures.gpuHolder("holder", "c", 0)));

    Why.Answer answer = Why.explain(new Why.Facts(Fixtures.job("train", Map.of(), true), unit, List.of(unit),
        List.of(), nodes, null, List.of()));

    assertThat(answer.reasons()).contains(
        "gang of 3 × 8 GPUs (pod set main): only 2 nodes have 8 free GPUs in one NVLink partition, room for 2 of 3 pods");
  }

  @Test
  void aJobThatNamesNoQueueInAnUnmanagedNamespaceIsNotQueued() {
    Why.Answer answer = Why.explain(notQueued(Fixtures.job("train", Map.of(), false), List.of(webhooks())));

    assertThat(answer.reasons()).singleElement().asString()
        .startsWith("not queued: it names no queue").contains("namespace team is not managed");
  }

  @Test
  void aJobInAManagedNamespaceIsQueuedWithoutALabel() {
    var namespace = new NamespaceBuilder().withNewMetadata().withName("team").addToLabels("queue", "on").endMetadata().build();
    Why.Answer answer = Why.explain(new Why.Facts(Fixtures.job("train", Map.of(), false), null, List.of(), List.of(),
        List.of(), namespace, List.of(webhooks())));

    assertThat(answer.reasons()).singleElement().asString().contains("its namespace is managed")
        .contains("the webhook was not called");
  }

  @Test
  void aLabelledJobWithoutTheWebhookRegisteredSaysSo() {
    Why.Answer answer = Why.explain(notQueued(Fixtures.job("train", Map.of(WellKnown.KUEUE_QUEUE_NAME, "nlp"), false), List.of()));

    assertThat(answer.queue()).isEqualTo("nlp");
    assertThat(answer.reasons()).singleElement().asString()
        .contains("it names queue nlp").contains("mutating webhook is not registered");
  }

  @Test
  void aLabelledJobCreatedUnsuspendedWasNotSeenByTheWebhook() {
    Why.Answer answer = Why.explain(notQueued(Fixtures.job("train", Map.of(WellKnown.QUOTA_NAME, "nlp"), false), List.of(webhooks())));

    assertThat(answer.reasons()).singleElement().asString().contains("the webhook was not called");
  }

  @Test
  void aJobThatOptsOutIsLeftAlone() {
    Why.Answer answer = Why.explain(notQueued(
        Fixtures.job("train", Map.of(WellKnown.QUOTA_NAME, "nlp", WellKnown.SKIP_QUEUE_LABEL, "true"), false), List.of(webhooks())));

    assertThat(answer.reasons()).singleElement().asString().contains(WellKnown.SKIP_QUEUE_LABEL + "=true");
  }

  @Test
  void anAdmittedJobIsNotWaiting() {
    QueueUnit unit = Fixtures.withStatus(Fixtures.unit("train", "nlp", "nlp", 0, Fixtures.CREATED, 1, "1", 0),
        QueueUnitPhase.RUNNING, null, "admitted by quota \"nlp\"");

    Why.Answer answer = Why.explain(facts(unit, List.of(unit)));

    assertThat(answer.waiting()).isFalse();
    assertThat(Why.text(answer)).contains("Job team/train is not waiting (queue nlp, phase Running)");
  }

  private static Why.Facts facts(QueueUnit unit, List<QueueUnit> queueUnits) {
    return new Why.Facts(Fixtures.job(unit.getMetadata().getName(), Map.of(WellKnown.QUOTA_NAME, "nlp"), true), unit,
        queueUnits,
        List.of(Fixtures.quota("nlp", "research", false, "4", "10", "6", "4"),
            Fixtures.quota("research", null, true, "8", "16", "8", "7")),
        List.of(), null, List.of());
  }

  private static Why.Facts notQueued(io.fabric8.kubernetes.api.model.GenericKubernetesResource job,
      List<MutatingWebhookConfiguration> webhooks) {
    var namespace = new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build();
    return new Why.Facts(job, null, List.of(), List.of(), List.of(), namespace, webhooks);
  }

  /** koord4j's jobs webhook, and the managed-namespaces one selecting namespaces labelled queue=on. */
  private static MutatingWebhookConfiguration webhooks() {
    return new MutatingWebhookConfigurationBuilder().withNewMetadata().withName("koord4j").endMetadata()
        .addNewWebhook().withName("jobs.koord4j.io").endWebhook()
        .addNewWebhook().withName(Why.MANAGED_NAMESPACES_WEBHOOK)
        .withNamespaceSelector(new LabelSelectorBuilder().addToMatchLabels("queue", "on").build()).endWebhook()
        .build();
  }

  private static Condition evicted(String reason, String message) {
    return new ConditionBuilder().withType("Evicted").withStatus("True").withReason(reason).withMessage(message).build();
  }
}
