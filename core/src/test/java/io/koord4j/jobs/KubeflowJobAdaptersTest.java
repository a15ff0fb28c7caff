package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubeflowJobAdaptersTest {
  private static final BigDecimal GI = BigDecimal.valueOf(1L << 30);

  private final TFJobAdapter tf = new TFJobAdapter();
  private final PyTorchJobAdapter pytorch = new PyTorchJobAdapter();
  private final MPIJobAdapter mpi = new MPIJobAdapter();

  @Test
  void aTFJobHasOnePodSetPerReplicaTypeChiefFirst() {
    List<PodSetInfo> podSets = tf.podSets(tfJob("tfjob-distributed"));

    assertThat(podSets).extracting(PodSetInfo::name).containsExactly("chief", "ps", "worker");
    assertThat(podSets).extracting(PodSetInfo::count).containsExactly(1, 2, 4);
    assertThat(podSets).allSatisfy(p -> assertThat(p.minCount()).isEqualTo(p.count()));
  }

  @Test
  void perPodRequestsTakeLimitsForMissingRequestsAndTheLargerOfInitAndRunning() {
    List<PodSetInfo> podSets = tf.podSets(tfJob("tfjob-distributed"));

    assertThat(podSets.get(2).perPodRequests())
        .containsEntry("cpu", new BigDecimal(4))
        .containsEntry("memory", GI.multiply(BigDecimal.valueOf(8)))
        .containsEntry("nvidia.com/gpu", BigDecimal.ONE);
    assertThat(podSets.get(1).perPodRequests())
        .containsEntry("cpu", new BigDecimal(2))
        .containsEntry("memory", GI.multiply(BigDecimal.valueOf(2)));
    assertThat(tf.totalRequests(tfJob("tfjob-distributed")))
        .containsEntry("cpu", new BigDecimal("20.5"))
        .containsEntry("nvidia.com/gpu", new BigDecimal(4));
  }

  @Test
  void suspendAndResumeUseTheRunPolicyAndLeaveTheJobUntouched() {
    TFJob job = tfJob("tfjob-distributed");

    TFJob suspended = tf.suspend(job);

    assertThat(tf.isSuspended(job)).isFalse();
    assertThat(tf.isSuspended(suspended)).isTrue();
    assertThat(runPolicy(suspended)).containsEntry("suspend", true).containsEntry("cleanPodPolicy", "Running");
    assertThat(tf.isSuspended(tf.resume(suspended))).isFalse();
  }

  @Test
  void everyReplicaTemplateIsEdited() {
    TFJob edited =
        tf.editPodTemplates(
            tfJob("tfjob-distributed"),
            t -> new io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder(t)
                .editOrNewMetadata().addToAnnotations("edited", "yes").endMetadata().build());

    assertThat(tf.podSets(edited))
        .allSatisfy(p -> assertThat(p.template().getMetadata().getAnnotations()).containsEntry("edited", "yes"));
    assertThat(tf.podSets(tfJob("tfjob-distributed")).get(0).template().getMetadata()).isNull();
  }

  @Test
  void priorityClassComesFromTheSchedulingPolicyElseTheTemplates() {
    assertThat(tf.priorityClassName(tfJob("tfjob-distributed"))).contains("high-priority");
    assertThat(pytorch.priorityClassName(Fixtures.load("pytorchjob", PyTorchJob.class))).contains("batch");
  }

  @Test
  void aNegativeReplicaCountNamesTheField() {
    assertThatThrownBy(() -> tf.podSets(tfJob("tfjob-negative-replicas")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spec.tfReplicaSpecs.Worker.replicas: -1 must not be negative");
  }

  @Test
  void statusFollowsKubeflowConditions() {
    assertThat(tf.status(tfJob("tfjob-succeeded"))).isEqualTo(JobPhase.SUCCEEDED);
    assertThat(tf.status(tfJob("tfjob-distributed"))).isEqualTo(JobPhase.PENDING);
    assertThat(pytorch.status(Fixtures.load("pytorchjob", PyTorchJob.class))).isEqualTo(JobPhase.RUNNING);
    assertThat(mpi.status(Fixtures.load("mpijob", MPIJob.class))).isEqualTo(JobPhase.FAILED);
  }

  @Test
  void aPyTorchMasterWithoutReplicasRunsOnePod() {
    PyTorchJob job = Fixtures.load("pytorchjob", PyTorchJob.class);

    assertThat(pytorch.isSuspended(job)).isTrue();
    assertThat(pytorch.podSets(job)).extracting(PodSetInfo::name, PodSetInfo::count)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("master", 1),
            org.assertj.core.groups.Tuple.tuple("worker", 3));
  }

  @Test
  void anMPIJobHasALauncherAndWorkers() {
    MPIJob job = Fixtures.load("mpijob", MPIJob.class);

    assertThat(mpi.apiVersion()).isEqualTo("kubeflow.org/v2beta1");
    assertThat(mpi.podSets(job)).extracting(PodSetInfo::name).containsExactly("launcher", "worker");
    assertThat(mpi.totalRequests(job))
        .containsEntry("cpu", new BigDecimal(5))
        .containsEntry("memory", GI.multiply(BigDecimal.valueOf(5)));
  }

  private static TFJob tfJob(String name) {
    return Fixtures.load(name, TFJob.class);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> runPolicy(TFJob job) {
    return (Map<String, Object>) ((Map<String, Object>) job.getAdditionalProperties().get("spec")).get("runPolicy");
  }
}
