package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.koord4j.api.WellKnown;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BatchJobAdapterTest {

  private final BatchJobAdapter adapter = new BatchJobAdapter();

  @Test
  void aJobThatRanHasItsStartClearedSoItsTemplatesMayChangeAgain() {
    Job ran = Fixtures.job("running");

    Job cleared = adapter.withTemplatesMutable(ran).orElseThrow();

    assertThat(cleared.getStatus().getStartTime()).isNull();
    assertThat(cleared.getStatus().getActive()).isEqualTo(2);
    assertThat(ran.getStatus().getStartTime()).as("the job itself is left alone").isNotNull();
    assertThat(adapter.withTemplatesMutable(cleared)).isEmpty();
    assertThat(adapter.withTemplatesMutable(Fixtures.job("plain"))).isEmpty();
  }

  /**
   * The job controller sets startTime in the sync that creates the pods, and the Suspended
   * condition in the sync that deletes them once suspended: until then, a suspension may still
   * meet pods created late.
   */
  @Test
  void aJobStopsOnlyOnceItsControllerHasActedOnTheSuspension() {
    Job resumedNotYetSeen = new JobBuilder(Fixtures.job("plain")).editSpec().withSuspend(false).endSpec()
        .withNewStatus().endStatus().build();
    Job seenRunning = new JobBuilder(resumedNotYetSeen).editStatus()
        .withStartTime("2026-01-01T00:00:00Z").withActive(2)
        .addNewCondition().withType("Suspended").withStatus("False").endCondition().endStatus().build();
    Job suspendedNotYetSeen = new JobBuilder(seenRunning).editSpec().withSuspend(true).endSpec()
        .editStatus().withActive(0).endStatus().build();
    Job stopped = new JobBuilder(suspendedNotYetSeen).editStatus()
        .withConditions().addNewCondition().withType("Suspended").withStatus("True").endCondition().endStatus().build();
    Job neverSynced = new JobBuilder(Fixtures.job("plain")).withNewStatus().endStatus().build();

    assertThat(adapter.resumptionSeen(resumedNotYetSeen)).isFalse();
    assertThat(adapter.resumptionSeen(seenRunning)).isTrue();
    assertThat(adapter.hasStopped(suspendedNotYetSeen)).isFalse();
    assertThat(adapter.hasStopped(stopped)).isTrue();
    assertThat(adapter.hasStopped(neverSynced)).as("not yet seen suspended by its controller").isFalse();
  }

  @Test
  void runsParallelismPodsAsOneWholeGang() {
    PodSetInfo podSet = onlyPodSet(Fixtures.job("parallel"));

    assertThat(podSet.name()).isEqualTo("main");
    assertThat(podSet.count()).isEqualTo(4);
    assertThat(podSet.minCount()).isEqualTo(4);
    assertThat(podSet.perPodRequests())
        .containsExactly(
            Map.entry("cpu", new BigDecimal("0.5")),
            Map.entry("memory", new BigDecimal(1024 * 1024 * 1024)),
            Map.entry("nvidia.com/gpu", BigDecimal.ONE));
    assertThat(podSet.perPodQuantities().get("cpu")).hasToString("500m");
    assertThat(podSet.template().getSpec().getContainers())
        .extracting("name")
        .containsExactly("trainer");
  }

  @Test
  void completionsBelowParallelismCapTheGang() {
    PodSetInfo podSet = onlyPodSet(Fixtures.job("few-completions"));

    assertThat(podSet.count()).isEqualTo(2);
    assertThat(podSet.minCount()).isEqualTo(2);
  }

  @Test
  void successesAreReplacedWhileMoreCompletionsRemainThanPodsRun() {
    JobBuilder plain = plainJob();

    assertThat(adapter.succeededPodsReplaced(plain.editSpec().withParallelism(2).withCompletions(10).endSpec().build()))
        .as("2 of 10 at a time").contains(8);
    assertThat(adapter.succeededPodsReplaced(plain.editSpec().withParallelism(3).withCompletions(3).endSpec().build()))
        .as("one pod per completion").contains(0);
    assertThat(adapter.succeededPodsReplaced(plain.editSpec().withParallelism(4).withCompletions(2).endSpec().build()))
        .as("fewer completions than parallelism").contains(0);
    assertThat(adapter.succeededPodsReplaced(plain.editSpec().withParallelism(3).withCompletions(null).endSpec().build()))
        .as("a work queue starts no pod once one succeeded").contains(0);
  }

  @Test
  void parallelismDefaultsToOnePod() {
    assertThat(onlyPodSet(Fixtures.job("plain")).count()).isEqualTo(1);
  }

  @Test
  void totalRequestsAreThePerPodRequestTimesTheCount() {
    assertThat(adapter.totalRequests(Fixtures.job("parallel")))
        .containsExactly(
            Map.entry("cpu", new BigDecimal(2)),
            Map.entry("memory", new BigDecimal(4L * 1024 * 1024 * 1024)),
            Map.entry("nvidia.com/gpu", new BigDecimal(4)));
    assertThat(adapter.totalRequests(Fixtures.job("few-completions")))
        .containsEntry("cpu", new BigDecimal(4));
  }

  @Test
  void anInvalidQuantityNamesItsFieldInTheJob() {
    assertThatThrownBy(() -> adapter.podSets(Fixtures.job("invalid-quantity")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("spec.template.spec.containers[1].resources.requests.cpu:");
  }

  @Test
  void changingThePodSetTemplateLeavesTheJobAlone() {
    Job job = Fixtures.job("parallel");
    Job before = new JobBuilder(job).build();

    onlyPodSet(job).template().getSpec().getContainers().get(0).setImage("changed");

    assertThat(job).isEqualTo(before);
  }

  @Test
  void editPodTemplatesChangesOnlyTheCopysTemplate() {
    Job job = Fixtures.job("parallel");

    Job edited =
        adapter.editPodTemplates(
            job,
            template ->
                new PodTemplateSpecBuilder(template)
                    .editOrNewMetadata()
                    .addToLabels(WellKnown.POD_GROUP_LABEL, "parallel")
                    .endMetadata()
                    .build());

    assertThat(edited.getSpec().getTemplate().getMetadata().getLabels())
        .containsEntry(WellKnown.POD_GROUP_LABEL, "parallel");
    assertThat(job.getSpec().getTemplate().getMetadata()).isNull();
  }

  @Test
  void suspendReturnsASuspendedCopyAndLeavesTheInputAlone() {
    Job running = Fixtures.job("running");
    Job before = new JobBuilder(running).build();

    Job suspended = adapter.suspend(running);

    assertThat(adapter.isSuspended(suspended)).isTrue();
    assertThat(adapter.isSuspended(running)).isFalse();
    assertThat(running).isEqualTo(before);
    assertThat(suspended.getSpec().getTemplate()).isEqualTo(running.getSpec().getTemplate());
  }

  @Test
  void resumeReturnsAnUnsuspendedCopyAndLeavesTheInputAlone() {
    Job waiting = Fixtures.job("parallel");
    Job before = new JobBuilder(waiting).build();

    Job resumed = adapter.resume(waiting);

    assertThat(adapter.isSuspended(resumed)).isFalse();
    assertThat(resumed.getSpec().getSuspend()).isFalse();
    assertThat(adapter.isSuspended(waiting)).isTrue();
    assertThat(waiting).isEqualTo(before);
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource({
    "plain, PENDING",
    "suspended-by-queue, PENDING",
    "running, RUNNING",
    "complete, SUCCEEDED",
    "failed, FAILED",
  })
  void mapsJobConditionsAndActivePodsToAPhase(String fixture, JobPhase expected) {
    assertThat(adapter.status(Fixtures.job(fixture))).isEqualTo(expected);
  }

  @Test
  void onlySucceededAndFailedJobsAreFinished() {
    assertThat(JobPhase.values())
        .filteredOn(JobPhase::isFinished)
        .containsExactly(JobPhase.SUCCEEDED, JobPhase.FAILED);
  }

  @Test
  void readsPriorityFromThePodTemplate() {
    Job job = Fixtures.job("parallel");

    assertThat(adapter.priorityClassName(job)).contains("koord-batch");
    assertThat(adapter.priority(job)).contains(5500);
    assertThat(adapter.priorityClassName(Fixtures.job("plain"))).isEmpty();
    assertThat(adapter.priority(Fixtures.job("plain"))).isEmpty();
  }

  @ParameterizedTest(name = "{0} names queue {1}")
  @CsvSource({
    "parallel, user-queue",
    "few-completions, team-a-quota",
    "big-init, team-a",
    "sidecar, legacy-queue",
  })
  void aJobNamingAQueueIsManagedInAnyNamespace(String fixture, String queue) {
    Job job = Fixtures.job(fixture);

    assertThat(adapter.queueName(job.getMetadata())).contains(queue);
    assertThat(adapter.isManaged(job, false)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {WellKnown.KUEUE_QUEUE_NAME, WellKnown.QUOTA_NAME})
  void eachQueueLabelMakesAJobManaged(String label) {
    Job job = plainJob().editMetadata().addToLabels(label, "q").endMetadata().build();

    assertThat(adapter.isManaged(job, false)).isTrue();
    assertThat(adapter.queueName(job.getMetadata())).contains("q");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        WellKnown.QUEUE_NAME_ANNOTATION,
        WellKnown.LEGACY_QUEUE_PREFIX + "queue-name",
      })
  void eachQueueAnnotationMakesAJobManaged(String annotation) {
    Job job = plainJob().editMetadata().addToAnnotations(annotation, "q").endMetadata().build();

    assertThat(adapter.isManaged(job, false)).isTrue();
    assertThat(adapter.queueName(job.getMetadata())).contains("q");
  }

  @Test
  void aJobNamingNoQueueIsManagedOnlyInAManagedNamespace() {
    Job job = Fixtures.job("plain");

    assertThat(adapter.isManaged(job, false)).isFalse();
    assertThat(adapter.isManaged(job, true)).isTrue();
    assertThat(adapter.queueName(job.getMetadata())).isEmpty();
  }

  @Test
  void aBlankQueueNameNamesNoQueue() {
    Job job =
        plainJob()
            .editMetadata()
            .addToLabels(WellKnown.KUEUE_QUEUE_NAME, "")
            .endMetadata()
            .build();

    assertThat(adapter.isManaged(job, false)).isFalse();
  }

  @Test
  void theKueueLabelWinsOverTheQuotaLabelWhichWinsOverTheAnnotation() {
    Job all =
        plainJob()
            .editMetadata()
            .addToLabels(WellKnown.KUEUE_QUEUE_NAME, "kueue-queue")
            .addToLabels(WellKnown.QUOTA_NAME, "quota")
            .addToAnnotations(WellKnown.QUEUE_NAME_ANNOTATION, "annotated")
            .endMetadata()
            .build();
    Job quotaAndAnnotation =
        new JobBuilder(all)
            .editMetadata()
            .removeFromLabels(WellKnown.KUEUE_QUEUE_NAME)
            .endMetadata()
            .build();

    assertThat(adapter.queueName(all.getMetadata())).contains("kueue-queue");
    assertThat(adapter.queueName(quotaAndAnnotation.getMetadata())).contains("quota");
  }

  /** A builder over the fixture that names no queue, to add one way of naming a queue. */
  private static JobBuilder plainJob() {
    return new JobBuilder(Fixtures.job("plain"));
  }

  private PodSetInfo onlyPodSet(Job job) {
    assertThat(adapter.podSets(job)).hasSize(1);
    return adapter.podSets(job).get(0);
  }
}
