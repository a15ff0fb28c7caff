package io.koord4j.webhook.admission;

import static io.koord4j.webhook.admission.Reviews.create;
import static io.koord4j.webhook.admission.Reviews.job;
import static io.koord4j.webhook.admission.Reviews.patched;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.jobs.RayCluster;
import io.koord4j.jobs.TFJob;
import io.koord4j.webhook.admission.quota.QuotaLookup;
import io.koord4j.testing.TestQuotas;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobMutatorTest {
  private static final String NS = "team-a";
  private final FixedQueues queues = FixedQueues.in(NS, "gpu", "default");
  private static final Instant NOW = Instant.parse("2026-12-02T09:00:00Z");
  private static final String KOORD4J = "system:serviceaccount:koord4j-system:koord4j-manager";
  private final AdmissionHandler labelled =
      new JobMutator(JobAdapters.builtIn(), queues, List::of, false, KOORD4J, Clock.fixed(NOW, ZoneOffset.UTC)).handler(false);

  @Test
  void queuedJobIsSuspendedAndKeepsItsLabels() {
    AdmissionReview request = create(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu", "app", "x"), Map.of()));

    AdmissionReview answer = labelled.handle(request);

    assertThat(answer.getResponse().getUid()).isEqualTo(request.getRequest().getUid());
    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getPatchType()).isEqualTo("JSONPatch");
    assertThat(answer.getResponse().getWarnings()).isNullOrEmpty();
    JsonNode stored = patched(request, answer);
    assertThat(stored.at("/spec/suspend").asBoolean()).isTrue();
    assertThat(stored.at("/metadata/labels").size()).isEqualTo(2);
    assertThat(Reviews.patchOps(answer)).extracting(op -> op.get("path").asText())
        .containsExactlyInAnyOrder("/spec/suspend", "/metadata/annotations");
  }

  @Test
  void queuedJobIsMarkedTakenIntoTheQueueWhenItIsCreated() {
    AdmissionReview request = create(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of("note", "kept")));

    JsonNode annotations = patched(request, labelled.handle(request)).at("/metadata/annotations");

    assertThat(annotations.path(WellKnown.JOB_HAS_ENQUEUED).asText()).isEqualTo("true");
    assertThat(annotations.path(WellKnown.JOB_ENQUEUE_TIMESTAMP).asText()).isEqualTo(NOW.toString());
    assertThat(annotations.path("note").asText()).isEqualTo("kept");
  }

  @Test
  void unqueuedJobIsAllowedUnchanged() {
    AdmissionReview answer = labelled.handle(create(job(NS, Map.of("app", "x"), Map.of())));

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getPatch()).isNull();
  }

  @Test
  void annotationOnlyJobGetsTheKueueLabel() {
    AdmissionReview request = create(job(NS, Map.of(), Map.of("kube-queue/queue-name", "gpu")));

    JsonNode stored = patched(request, labelled.handle(request));

    assertThat(stored.at("/spec/suspend").asBoolean()).isTrue();
    assertThat(stored.at("/metadata/labels").get(WellKnown.KUEUE_QUEUE_NAME).asText()).isEqualTo("gpu");
  }

  @Test
  void quotaLabelIsNotCopiedIntoTheKueueLabel() {
    AdmissionReview request = create(job(NS, Map.of(WellKnown.QUOTA_NAME, "gpu"), Map.of()));

    JsonNode stored = patched(request, labelled.handle(request));

    assertThat(stored.at("/spec/suspend").asBoolean()).isTrue();
    assertThat(stored.at("/metadata/labels").has(WellKnown.KUEUE_QUEUE_NAME)).isFalse();
  }

  @Test
  void alreadySuspendedQueuedJobIsOnlyMarked() {
    Job suspended = new JobBuilder(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of()))
        .editSpec().withSuspend(true).endSpec().build();

    AdmissionReview answer = labelled.handle(create(suspended));

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(Reviews.patchOps(answer)).extracting(op -> op.get("path").asText())
        .containsExactly("/metadata/annotations");
  }

  @Test
  void suspendedJobAlreadyMarkedNeedsNoPatch() {
    Job marked = new JobBuilder(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"),
            Map.of(WellKnown.JOB_HAS_ENQUEUED, "true", WellKnown.JOB_ENQUEUE_TIMESTAMP, "2026-12-01T00:00:00Z")))
        .editSpec().withSuspend(true).endSpec().build();

    AdmissionReview answer = labelled.handle(create(marked));

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getPatch()).isNull();
  }

  @Test
  void explicitlyRunningQueuedJobIsSuspendedWithReplace() {
    Job running = new JobBuilder(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of()))
        .editSpec().withSuspend(false).endSpec().build();
    AdmissionReview request = create(running);

    AdmissionReview answer = labelled.handle(request);

    assertThat(Reviews.patchOps(answer))
        .filteredOn(op -> op.get("path").asText().equals("/spec/suspend"))
        .extracting(op -> op.get("op").asText())
        .containsExactly("replace");
    assertThat(patched(request, answer).at("/spec/suspend").asBoolean()).isTrue();
  }

  @Test
  void unlabelledJobInManagedNamespaceIsSuspendedWithoutLabel() {
    AdmissionHandler managed =
        new JobMutator(JobAdapters.builtIn(), FixedQueues.NONE, List::of, false, KOORD4J).handler(true);
    AdmissionReview request = create(job(NS, Map.of(), Map.of()));

    JsonNode stored = patched(request, managed.handle(request));

    assertThat(stored.at("/spec/suspend").asBoolean()).isTrue();
    assertThat(stored.at("/metadata/labels").isMissingNode()).isTrue();
  }

  @Test
  void namespaceDefaultQueueIsUsedOnlyWhenEnabledAndPresent() {
    AdmissionHandler withDefault =
        new JobMutator(JobAdapters.builtIn(), queues, List::of, true, KOORD4J).handler(false);
    AdmissionReview inTeamA = create(job(NS, Map.of("app", "x"), Map.of()));
    AdmissionReview elsewhere = create(job("other", Map.of("app", "x"), Map.of()));

    JsonNode stored = patched(inTeamA, withDefault.handle(inTeamA));

    assertThat(stored.at("/spec/suspend").asBoolean()).isTrue();
    assertThat(stored.at("/metadata/labels").get(WellKnown.KUEUE_QUEUE_NAME).asText())
        .isEqualTo(JobMutator.DEFAULT_QUEUE);
    assertThat(stored.at("/metadata/labels").get("app").asText()).isEqualTo("x");
    assertThat(withDefault.handle(elsewhere).getResponse().getPatch()).isNull();
    assertThat(labelled.handle(inTeamA).getResponse().getPatch()).isNull();
  }

  @Test
  void missingQueueIsAcceptedWithAWarning() {
    AdmissionReview request = create(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "cpu"), Map.of()));

    AdmissionReview answer = labelled.handle(request);

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getWarnings())
        .containsExactly(JobMutator.missingQueueWarning("cpu"));
    assertThat(answer.getResponse().getWarnings().get(0)).contains("\"cpu\"", "does not exist");
    assertThat(patched(request, answer).at("/spec/suspend").asBoolean()).isTrue();
  }

  @Test
  void aQueueKeptInAnotherNamespaceDrawsNoWarning() {
    QuotaLookup teamBServesTeamA = () -> List.of(quota("team-b", "koordinator-system", NS));
    AdmissionHandler koordQueue =
        new JobMutator(JobAdapters.builtIn(), FixedQueues.in("koord-queue", "team-b"), teamBServesTeamA, false, KOORD4J)
            .handler(false);

    AdmissionReview answer =
        koordQueue.handle(create(job(NS, Map.of(WellKnown.QUOTA_NAME, "team-b"), Map.of())));

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getWarnings()).isNullOrEmpty();
  }

  @Test
  void updatesAndOtherKindsPassThrough() {
    Job queued = job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of());
    AdmissionReview update = Reviews.update(queued, queued);
    AdmissionReview configMap = create(new ConfigMapBuilder().withNewMetadata().withName("c")
        .withNamespace(NS).addToLabels(WellKnown.KUEUE_QUEUE_NAME, "gpu").endMetadata().build());

    assertThat(labelled.handle(update).getResponse().getPatch()).isNull();
    assertThat(labelled.handle(configMap).getResponse().getPatch()).isNull();
    assertThat(labelled.handle(configMap).getResponse().getAllowed()).isTrue();
  }

  @Test
  void aRunningJobCannotGrowPastWhatItsQueueAdmitted() {
    Job running = running(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of()));
    Job grown = new JobBuilder(running).editSpec().withParallelism(4).withCompletions(4).endSpec().build();

    AdmissionReview answer = labelled.handle(Reviews.update(running, grown));

    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getCode()).isEqualTo(422);
    assertThat(answer.getResponse().getStatus().getMessage())
        .isEqualTo("spec: a running job cannot change the size its queue admitted (pod set \"main\""
            + " from 2 to 4 pods, cpu from 1 to 2); suspend the job first, and its queue admits it"
            + " again for the new size");
  }

  @Test
  void aRunningJobCannotMoveToAnotherQueue() {
    Job running = running(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of()));
    Job moved = new JobBuilder(running).editMetadata()
        .addToLabels(WellKnown.KUEUE_QUEUE_NAME, "default").endMetadata().build();

    AdmissionReview answer = labelled.handle(Reviews.update(running, moved));

    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getMessage())
        .startsWith("metadata.labels: the queue of a running job cannot change (from \"gpu\" to \"default\")");
  }

  @Test
  void aSuspendedJobOrOneBeingSuspendedMayChangeItsSize() {
    Job running = running(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of()));
    Job suspendedAndGrown =
        new JobBuilder(running).editSpec().withSuspend(true).withParallelism(4).endSpec().build();
    Job grownAgain = new JobBuilder(suspendedAndGrown).editSpec().withParallelism(8).endSpec().build();

    assertThat(labelled.handle(Reviews.update(running, suspendedAndGrown)).getResponse().getAllowed()).isTrue();
    assertThat(labelled.handle(Reviews.update(suspendedAndGrown, grownAgain)).getResponse().getAllowed()).isTrue();
  }

  @Test
  void aRunningJobMayChangeWhatItsQueueDoesNotCount() {
    Job running = running(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of()));
    Job relabelled = new JobBuilder(running).editMetadata().addToLabels("app", "y").endMetadata().build();

    assertThat(labelled.handle(Reviews.update(running, relabelled)).getResponse().getAllowed()).isTrue();
  }

  @Test
  void aJobNamingAnotherNamespacesQuotaIsRefusedNamingTheLabelAndTheRule() {
    AdmissionReview answer = withQuotas(quota("team-b", "team-b"))
        .handle(create(job(NS, Map.of(WellKnown.QUOTA_NAME, "team-b"), Map.of())));

    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getCode()).isEqualTo(403);
    assertThat(answer.getResponse().getStatus().getMessage())
        .isEqualTo("metadata.labels[quota.scheduling.koordinator.sh/name]: quota \"team-b\" is not bound to"
            + " namespace \"team-a\" (it lives in \"team-b\" and lists no other namespaces)");
  }

  @Test
  void koordinatorsOwnQuotasServeOnlyTheirNamespaces() {
    ElasticQuota system = quota(WellKnown.SYSTEM_QUOTA, "koordinator-system");
    ElasticQuota unlimited = quota(WellKnown.DEFAULT_QUOTA, "koordinator-system");
    AdmissionReview systemQuota = create(job(NS, Map.of(WellKnown.QUOTA_NAME, WellKnown.SYSTEM_QUOTA), Map.of()));
    AdmissionReview defaultQuota = create(job(NS, Map.of(WellKnown.QUOTA_NAME, WellKnown.DEFAULT_QUOTA), Map.of()));

    assertThat(withQuotas(system).handle(systemQuota).getResponse().getStatus().getMessage())
        .endsWith("quota \"koordinator-system-quota\" is not bound to namespace \"team-a\" (it serves only"
            + " \"kube-system\")");
    assertThat(withQuotas(unlimited, quota("own", NS)).handle(defaultQuota).getResponse().getStatus().getMessage())
        .endsWith("(it serves only namespaces no other quota is bound to, and quota \"own\" is)");
    assertThat(withQuotas(unlimited).handle(defaultQuota).getResponse().getAllowed())
        .as("a namespace no quota is bound to").isTrue();
  }

  @Test
  void aJobNamingAQuotaBoundToItsNamespaceIsHeld() {
    AdmissionReview request = create(job(NS, Map.of(WellKnown.QUOTA_NAME, "shared"), Map.of()));

    AdmissionReview answer = withQuotas(quota("shared", "koordinator-system", "team-b", NS)).handle(request);

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(patched(request, answer).at("/spec/suspend").asBoolean()).isTrue();
  }

  @Test
  void aQuotaTheCacheShowsUnboundIsReadAgainBeforeTheJobIsRefused() {
    QuotaLookup justBound = new QuotaLookup() {
      @Override
      public Collection<ElasticQuota> all() {
        return List.of(quota("team-b", "team-b"));
      }

      @Override
      public Collection<ElasticQuota> fresh() {
        return List.of(quota("team-b", "team-b", NS));
      }
    };
    AdmissionHandler handler = new JobMutator(JobAdapters.builtIn(), queues, justBound, false, KOORD4J).handler(false);

    AdmissionReview answer = handler.handle(create(job(NS, Map.of(WellKnown.QUOTA_NAME, "team-b"), Map.of())));

    assertThat(answer.getResponse().getAllowed()).isTrue();
  }

  @Test
  void anUpdateThatNamesAnotherNamespacesQuotaIsRefused() {
    Job held = new JobBuilder(job(NS, Map.of(WellKnown.QUOTA_NAME, "own"), Map.of()))
        .editSpec().withSuspend(true).endSpec().build();
    Job moved = new JobBuilder(held).editMetadata().addToLabels(WellKnown.QUOTA_NAME, "team-b").endMetadata().build();
    Job relabelled = new JobBuilder(held).editMetadata().addToLabels("app", "y").endMetadata().build();
    AdmissionHandler handler = withQuotas(quota("own", NS), quota("team-b", "team-b"));

    AdmissionReview answer = handler.handle(Reviews.update(held, moved));

    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getCode()).isEqualTo(403);
    assertThat(answer.getResponse().getStatus().getMessage())
        .startsWith("metadata.labels[quota.scheduling.koordinator.sh/name]: quota \"team-b\" is not bound");
    assertThat(handler.handle(Reviews.update(held, relabelled)).getResponse().getAllowed()).isTrue();
  }

  private AdmissionHandler withQuotas(ElasticQuota... quotas) {
    return new JobMutator(JobAdapters.builtIn(), queues, () -> List.of(quotas), false, KOORD4J).handler(false);
  }

  private static ElasticQuota quota(String name, String namespace, String... listed) {
    return TestQuotas.bound(name, namespace, listed);
  }

  private static Job running(Job job) {
    return new JobBuilder(job).editSpec().withSuspend(false).endSpec().build();
  }

  @Test
  void aCreatedJobWhoseSuspensionCannotBeWrittenIsRefusedNamingTheField() {
    AdmissionReview request = create(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of()));
    objectOf(request).put("spec", "none");

    AdmissionReview answer = labelled.handle(request);

    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getCode()).isEqualTo(400);
    assertThat(answer.getResponse().getStatus().getMessage())
        .isEqualTo("cannot read the batch/v1 Job: /spec must be an object, found STRING");
  }

  @Test
  void anUnreadableUpdateIsRefusedWithTheReason() {
    Job running = running(job(NS, Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"), Map.of()));
    AdmissionReview request = Reviews.update(running, running);
    @SuppressWarnings("unchecked")
    Map<String, Object> spec = (Map<String, Object>) objectOf(request).get("spec");
    spec.put("parallelism", "many");

    AdmissionReview answer = labelled.handle(request);

    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getCode()).isEqualTo(400);
    assertThat(answer.getResponse().getStatus().getMessage()).contains("batch/v1 Job", "many");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> objectOf(AdmissionReview request) {
    return (Map<String, Object>) request.getRequest().getObject();
  }

  @Test
  void aQueuedTFJobIsHeldThroughItsRunPolicy() {
    TFJob tfJob = Serialization.unmarshal("""
        apiVersion: kubeflow.org/v1
        kind: TFJob
        metadata: {name: mnist, namespace: team-a, labels: {quota.scheduling.koordinator.sh/name: gpu}}
        spec:
          tfReplicaSpecs:
            Worker:
              replicas: 2
              template: {spec: {containers: [{name: tensorflow, image: tf}]}}
        """, TFJob.class);
    AdmissionReview request = create(tfJob);

    JsonNode stored = patched(request, labelled.handle(request));

    assertThat(stored.at("/spec/runPolicy/suspend").asBoolean()).isTrue();
  }

  @Test
  void theRayClusterOfARayJobIsLeftAloneEvenInAManagedNamespace() {
    RayCluster cluster = Serialization.unmarshal("""
        apiVersion: ray.io/v1
        kind: RayCluster
        metadata:
          name: rayjob-sample-raycluster-x
          namespace: team-a
          labels: {kueue.x-k8s.io/queue-name: gpu}
          ownerReferences: [{apiVersion: ray.io/v1, kind: RayJob, name: rayjob-sample, uid: u1}]
        spec:
          headGroupSpec: {template: {spec: {containers: [{name: ray-head, image: ray}]}}}
        """, RayCluster.class);
    AdmissionHandler managed =
        new JobMutator(JobAdapters.builtIn(), queues, List::of, false, KOORD4J).handler(true);

    AdmissionReview answer = managed.handle(create(cluster));

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getPatch()).isNull();
  }
}
