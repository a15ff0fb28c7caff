package io.koord4j.webhook.admission;

import static io.koord4j.webhook.admission.Reviews.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.jobs.RayCluster;
import io.koord4j.jobs.SparkApplication;
import io.koord4j.jobs.TFJob;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job its queue holds stays held: only koord4j resumes it, and it cannot leave every queue. */
class QueuedJobChangesTest {
  private static final String NS = "team-a";
  private static final String KOORD4J = "system:serviceaccount:koord4j-system:koord4j-manager";
  private static final String RESUMED_BY_QUEUE_ONLY =
      "spec.suspend: a queued job is resumed only by its queue (koord4j) once admitted";
  private final JobMutator mutator =
      new JobMutator(JobAdapters.builtIn(), FixedQueues.in(NS, "gpu", "cpu"), List::of, false, KOORD4J);
  private final AdmissionHandler labelled = mutator.handler(false);

  @Test
  void aTenantCannotResumeAHeldJob() {
    Job held = held(Map.of(WellKnown.QUOTA_NAME, "gpu"));

    AdmissionResponse answer = byTenant(held, resumed(held));

    assertThat(answer.getAllowed()).isFalse();
    assertThat(answer.getStatus().getCode()).isEqualTo(422);
    assertThat(answer.getStatus().getMessage()).isEqualTo(RESUMED_BY_QUEUE_ONLY);
  }

  @Test
  void droppingTheSuspendFieldResumesTheJobToo() {
    Job held = held(Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"));
    Job unsuspended = new JobBuilder(held).editSpec().withSuspend(null).endSpec().build();

    assertThat(byTenant(held, unsuspended).getStatus().getMessage()).isEqualTo(RESUMED_BY_QUEUE_ONLY);
  }

  @Test
  void removingTheQuotaLabelWhileResumingNamesBothFields() {
    Job held = held(Map.of(WellKnown.QUOTA_NAME, "gpu", "app", "x"));
    Job escaped = new JobBuilder(resumed(held)).editMetadata().removeFromLabels(WellKnown.QUOTA_NAME).endMetadata().build();

    AdmissionResponse answer = byTenant(held, escaped);

    assertThat(answer.getAllowed()).isFalse();
    assertThat(answer.getStatus().getMessage()).isEqualTo(RESUMED_BY_QUEUE_ONLY
        + "; metadata.labels[quota.scheduling.koordinator.sh/name]: a queued job cannot leave every queue"
        + " while it waits; it may name another queue");
  }

  @Test
  void aHeldJobCannotLeaveEveryQueueEvenStillSuspended() {
    Job held = held(Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"));
    Job unlabelled = new JobBuilder(held).editMetadata().removeFromLabels(WellKnown.KUEUE_QUEUE_NAME).endMetadata().build();
    Job blank = new JobBuilder(held).editMetadata().addToLabels(WellKnown.KUEUE_QUEUE_NAME, " ").endMetadata().build();

    assertThat(byTenant(held, unlabelled).getStatus().getMessage())
        .startsWith("metadata.labels[kueue.x-k8s.io/queue-name]: a queued job cannot leave every queue");
    assertThat(byTenant(held, blank).getAllowed()).isFalse();
  }

  @Test
  void aHeldJobCannotOptOutOfItsQueue() {
    Job held = held(Map.of(WellKnown.QUOTA_NAME, "gpu"));
    Job skipped = new JobBuilder(held).editMetadata().addToLabels(WellKnown.SKIP_QUEUE_LABEL, "true").endMetadata().build();

    assertThat(byTenant(held, skipped).getStatus().getMessage())
        .isEqualTo("metadata.labels[koord-queue/skip]: a queued job cannot leave its queue while it waits");
    assertThat(byTenant(held, resumed(skipped)).getStatus().getMessage())
        .isEqualTo(RESUMED_BY_QUEUE_ONLY
            + "; metadata.labels[koord-queue/skip]: a queued job cannot leave its queue while it waits");
  }

  @Test
  void aHeldJobMayMoveToAnotherQueueAsInKueue() {
    Job held = held(Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu", WellKnown.QUOTA_NAME, "gpu"));
    Job moved = new JobBuilder(held).editMetadata().addToLabels(WellKnown.KUEUE_QUEUE_NAME, "cpu").endMetadata().build();
    Job toTheQuotasQueue =
        new JobBuilder(held).editMetadata().removeFromLabels(WellKnown.KUEUE_QUEUE_NAME).endMetadata().build();
    Job grown = new JobBuilder(held).editSpec().withParallelism(8).withCompletions(8).endSpec().build();

    assertThat(byTenant(held, moved).getAllowed()).isTrue();
    assertThat(byTenant(held, toTheQuotasQueue).getAllowed()).isTrue();
    assertThat(byTenant(held, grown).getAllowed()).isTrue();
  }

  @Test
  void koord4jResumesAndRelabelsAHeldJob() {
    Job held = held(Map.of(WellKnown.QUOTA_NAME, "gpu"));
    Job released = new JobBuilder(resumed(held)).editMetadata().removeFromLabels(WellKnown.QUOTA_NAME).endMetadata().build();

    assertThat(by(KOORD4J, held, resumed(held)).getAllowed()).isTrue();
    assertThat(by(KOORD4J, held, released).getAllowed()).isTrue();
  }

  @Test
  void koord4jStillKeepsARunningJobInItsQueue() {
    Job running = resumed(held(Map.of(WellKnown.QUOTA_NAME, "gpu")));
    Job moved = new JobBuilder(running).editMetadata().addToLabels(WellKnown.QUOTA_NAME, "cpu").endMetadata().build();

    assertThat(by(KOORD4J, running, moved).getStatus().getMessage())
        .startsWith("metadata.labels: the queue of a running job cannot change (from \"gpu\" to \"cpu\")");
  }

  @Test
  void aTenantMaySuspendOrStopARunningJob() {
    Job running = resumed(held(Map.of(WellKnown.QUOTA_NAME, "gpu")));
    Job suspended = new JobBuilder(running).editSpec().withSuspend(true).endSpec().build();

    assertThat(byTenant(running, suspended).getAllowed()).isTrue();
  }

  @Test
  void aJobHeldOnlyByTheQueuesMarkOrItsManagedNamespaceStaysHeld() {
    Job marked = held(Map.of());
    Job unmarked = new JobBuilder(marked).editMetadata().withAnnotations(Map.of()).endMetadata().build();
    AdmissionHandler managed = mutator.handler(true);

    assertThat(byTenant(marked, resumed(marked)).getStatus().getMessage()).isEqualTo(RESUMED_BY_QUEUE_ONLY);
    assertThat(answer(managed, update("alice", unmarked, resumed(unmarked))).getAllowed()).isFalse();
    assertThat(byTenant(unmarked, resumed(unmarked)).getAllowed()).as("suspended by its owner, never queued")
        .isTrue();
  }

  @Test
  void aJobThatOptedOutBeforeIsNotHeld() {
    Job skipped = held(Map.of(WellKnown.QUOTA_NAME, "gpu", WellKnown.SKIP_QUEUE_LABEL, "true"));

    assertThat(byTenant(skipped, resumed(skipped)).getAllowed()).isTrue();
  }

  @Test
  void aTFJobIsHeldThroughItsRunPolicy() {
    TFJob held = Serialization.unmarshal("""
        apiVersion: kubeflow.org/v1
        kind: TFJob
        metadata: {name: mnist, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: gpu}}
        spec:
          runPolicy: {suspend: true}
          tfReplicaSpecs:
            Worker:
              replicas: 2
              template: {spec: {containers: [{name: tensorflow, image: tf}]}}
        """, TFJob.class);
    TFJob resumed = Serialization.unmarshal(
        Serialization.asYaml(held).replace("suspend: true", "suspend: false"), TFJob.class);

    assertThat(byTenant(held, resumed).getStatus().getMessage())
        .isEqualTo("spec.runPolicy.suspend: a queued job is resumed only by its queue (koord4j) once admitted");
  }

  @Test
  void aSparkApplicationHeldByItsAnnotationAloneStaysHeld() {
    SparkApplication held = Serialization.unmarshal("""
        apiVersion: sparkoperator.k8s.io/v1beta2
        kind: SparkApplication
        metadata:
          name: pi
          namespace: team-a
          labels: {kueue.x-k8s.io/queue-name: gpu}
          annotations: {scheduling.x-k8s.io/suspend: "true"}
        spec: {type: Scala, mode: cluster, driver: {cores: 1}, executor: {cores: 1, instances: 2}}
        """, SparkApplication.class);
    SparkApplication resumed = Serialization.unmarshal(
        Serialization.asYaml(held).replace("scheduling.x-k8s.io/suspend: \"true\"", "other: x"),
        SparkApplication.class);

    assertThat(byTenant(held, resumed).getStatus().getMessage()).isEqualTo(
        "metadata.annotations[scheduling.x-k8s.io/suspend]: a queued job is resumed only by its queue"
            + " (koord4j) once admitted");
  }

  @Test
  void aHeldRayClusterCannotBecomePartOfARayJob() {
    RayCluster held = Serialization.unmarshal("""
        apiVersion: ray.io/v1
        kind: RayCluster
        metadata: {name: c, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: gpu}}
        spec:
          suspend: true
          headGroupSpec: {template: {spec: {containers: [{name: ray-head, image: ray}]}}}
        """, RayCluster.class);
    RayCluster owned = Serialization.unmarshal(Serialization.asYaml(held), RayCluster.class);
    owned.getMetadata().setOwnerReferences(java.util.List.of(new OwnerReferenceBuilder()
        .withApiVersion("ray.io/v1").withKind("RayJob").withName("j").withUid("u1").build()));

    assertThat(byTenant(held, owned).getStatus().getMessage())
        .isEqualTo("metadata: a queued job cannot leave its queue while it waits");
  }

  /** A suspended Job with the labels, marked as taken into its queue as the webhook marks it. */
  private static Job held(Map<String, String> labels) {
    Job job = job(NS, labels, Map.of(WellKnown.JOB_HAS_ENQUEUED, "true"));
    return new JobBuilder(job).editSpec().withSuspend(true).endSpec().build();
  }

  private static Job resumed(Job job) {
    return new JobBuilder(job).editSpec().withSuspend(false).endSpec().build();
  }

  private AdmissionResponse byTenant(HasMetadata before, HasMetadata after) {
    return by("system:serviceaccount:team-a:tenant", before, after);
  }

  private AdmissionResponse by(String username, HasMetadata before, HasMetadata after) {
    return answer(labelled, update(username, before, after));
  }

  private static AdmissionReview update(String username, HasMetadata before, HasMetadata after) {
    AdmissionReview review = Reviews.update(before, after);
    review.getRequest().getUserInfo().setUsername(username);
    return review;
  }

  private static AdmissionResponse answer(AdmissionHandler handler, AdmissionReview review) {
    AdmissionResponse response = handler.handle(review).getResponse();
    assertThat(response.getUid()).isEqualTo(review.getRequest().getUid());
    return response;
  }
}
