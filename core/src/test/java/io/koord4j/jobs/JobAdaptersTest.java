package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.List;
import org.junit.jupiter.api.Test;

class JobAdaptersTest {

  @Test
  void findsTheBatchJobAdapterByApiVersionAndKind() {
    JobAdapters adapters = JobAdapters.builtIn();

    assertThat(adapters.find("batch/v1", "Job")).get().isInstanceOf(BatchJobAdapter.class);
    assertThat(adapters.find("batch/v1", "Job").orElseThrow().type()).isEqualTo(Job.class);
    assertThat(adapters.all()).hasSize(8);
  }

  @Test
  void findsEveryKindByTheApiVersionAndKindOfItsType() {
    JobAdapters adapters = JobAdapters.builtIn();

    assertThat(adapters.find("kubeflow.org/v1", "TFJob")).get().isInstanceOf(TFJobAdapter.class);
    assertThat(adapters.find("kubeflow.org/v1", "PyTorchJob")).get().isInstanceOf(PyTorchJobAdapter.class);
    assertThat(adapters.find("kubeflow.org/v2beta1", "MPIJob")).get().isInstanceOf(MPIJobAdapter.class);
    assertThat(adapters.find("sparkoperator.k8s.io/v1beta2", "SparkApplication"))
        .get().isInstanceOf(SparkApplicationAdapter.class);
    assertThat(adapters.find("ray.io/v1", "RayJob")).get().isInstanceOf(RayJobAdapter.class);
    assertThat(adapters.find("ray.io/v1", "RayCluster")).get().isInstanceOf(RayClusterAdapter.class);
    assertThat(adapters.find("argoproj.io/v1alpha1", "Workflow")).get().isInstanceOf(WorkflowAdapter.class);
  }

  @Test
  void findsNothingForKindsItDoesNotManage() {
    JobAdapters adapters = JobAdapters.builtIn();

    assertThat(adapters.find("batch/v1", "CronJob")).isEmpty();
    assertThat(adapters.find("batch/v2", "Job")).isEmpty();
  }

  @Test
  void refusesTwoAdaptersForTheSameKind() {
    assertThatThrownBy(() -> new JobAdapters(List.of(new BatchJobAdapter(), new BatchJobAdapter())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("two adapters for batch/v1 Job");
  }
}
