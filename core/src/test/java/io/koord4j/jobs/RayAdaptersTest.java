package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.koord4j.api.WellKnown;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RayAdaptersTest {
  private final RayJobAdapter rayJobs = new RayJobAdapter();
  private final RayClusterAdapter rayClusters = new RayClusterAdapter();

  @Test
  void aRayJobQueuesTheHeadAndEachWorkerGroupOfItsCluster() {
    RayJob job = Fixtures.load("rayjob", RayJob.class);

    assertThat(rayJobs.podSets(job))
        .extracting(PodSetInfo::name, PodSetInfo::count)
        .containsExactly(tuple("head", 1), tuple("small-group", 2));
    assertThat(rayJobs.totalRequests(job))
        .containsEntry("cpu", new BigDecimal("0.6"))
        .containsEntry("memory", BigDecimal.valueOf(4L << 30));
    assertThat(rayJobs.queueName(job.getMetadata())).contains("team-a");
    assertThat(rayJobs.status(job)).isEqualTo(JobPhase.SUCCEEDED);
  }

  @Test
  void aRayJobIsHeldThroughSpecSuspendAndItsClusterTemplatesAreEdited() {
    RayJob job = Fixtures.load("rayjob", RayJob.class);

    RayJob suspended = rayJobs.suspend(job);
    RayJob edited =
        rayJobs.editPodTemplates(
            suspended,
            t -> new PodTemplateSpecBuilder(t).editOrNewMetadata().addToLabels("gang", "g").endMetadata().build());

    assertThat(rayJobs.isSuspended(job)).isFalse();
    assertThat(rayJobs.isSuspended(suspended)).isTrue();
    assertThat(rayJobs.isSuspended(rayJobs.resume(suspended))).isFalse();
    assertThat(rayJobs.podSets(edited))
        .allSatisfy(p -> assertThat(p.template().getMetadata().getLabels()).containsEntry("gang", "g"));
  }

  @Test
  void anAutoscalingClusterStartsWithMinReplicasTimesHosts() {
    RayCluster cluster = Fixtures.load("raycluster-autoscaling", RayCluster.class);

    assertThat(rayClusters.podSets(cluster))
        .extracting(PodSetInfo::name, PodSetInfo::count)
        .containsExactly(tuple("head", 1), tuple("small-group", 1), tuple("multi-host", 8));
    assertThat(rayClusters.totalRequests(cluster)).containsEntry("cpu", new BigDecimal(18));
    assertThat(rayClusters.status(cluster)).isEqualTo(JobPhase.RUNNING);
  }

  @Test
  void theClusterOfARayJobIsNotQueuedTwice() {
    RayCluster owned = Fixtures.load("raycluster-of-rayjob", RayCluster.class);

    assertThat(rayClusters.isSkipped(owned.getMetadata())).isTrue();
    assertThat(rayClusters.queueName(owned.getMetadata())).isEmpty();
    assertThat(rayClusters.isManaged(owned, true)).isFalse();
  }

  @Test
  void aClusterLabelledToSkipIsLeftAlone() {
    RayCluster cluster = Fixtures.load("raycluster-autoscaling", RayCluster.class);
    cluster.getMetadata().setLabels(Map.of(WellKnown.QUOTA_NAME, "team-a", WellKnown.SKIP_QUEUE_LABEL, "true"));

    assertThat(rayClusters.queueName(cluster.getMetadata())).isEmpty();
    assertThat(rayClusters.isManaged(cluster, true)).isFalse();
  }

  @Test
  void aWorkerGroupWithoutReplicasNamesTheField() {
    RayCluster cluster = Fixtures.load("raycluster-missing-replicas", RayCluster.class);

    assertThat(rayClusters.isSkipped(cluster.getMetadata())).isFalse();
    assertThatThrownBy(() -> rayClusters.podSets(cluster))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.workerGroupSpecs[0].replicas: is required");
  }
}
