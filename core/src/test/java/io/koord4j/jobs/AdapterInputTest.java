package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.HashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every adapter leaves the job it is given as it was: the manager hands its reconcilers the
 * informer's own job, uncopied, so a change made in place would show in every later read of it.
 */
class AdapterInputTest {
  @ParameterizedTest(name = "{1} {2}")
  @CsvSource({
    "plain, batch/v1, Job",
    "tfjob-distributed, kubeflow.org/v1, TFJob",
    "pytorchjob, kubeflow.org/v1, PyTorchJob",
    "mpijob, kubeflow.org/v2beta1, MPIJob",
    "sparkapplication, sparkoperator.k8s.io/v1beta2, SparkApplication",
    "rayjob, ray.io/v1, RayJob",
    "raycluster-autoscaling, ray.io/v1, RayCluster",
    "workflow, argoproj.io/v1alpha1, Workflow",
  })
  void everyCallLeavesTheJobAsItWas(String fixture, String apiVersion, String kind) {
    exercise(JobAdapters.builtIn().find(apiVersion, kind).orElseThrow(), fixture);
  }

  private static <T extends HasMetadata> void exercise(JobAdapter<T> adapter, String fixture) {
    T job = Fixtures.load(fixture, adapter.type());
    String before = Serialization.asJson(job);

    adapter.queueName(job.getMetadata());
    adapter.isSuspended(job);
    adapter.status(job);
    adapter.resumptionSeen(job);
    adapter.hasStopped(job);
    adapter.podSets(job);
    adapter.totalRequests(job);
    adapter.priority(job);
    adapter.priorityClassName(job);
    adapter.withTemplatesMutable(job);
    T held = adapter.enqueued(job, Instant.parse("2026-12-03T12:00:00Z"));
    T resumed = adapter.resume(adapter.suspend(job));
    // The reconciler's edit changes the template it is handed, as a builder would not.
    T edited = adapter.editPodTemplates(job, template -> {
      if (template.getMetadata() == null) {
        template.setMetadata(new ObjectMeta());
      }
      template.getMetadata().setLabels(new HashMap<>());
      template.getMetadata().getLabels().put("pod-group.scheduling.sigs.k8s.io", "gang");
      return template;
    });

    // Copies share nothing with the job: changing them leaves it as it was too.
    resumed.getMetadata().setName("renamed");
    edited.getMetadata().setNamespace("moved");

    assertThat(Serialization.asJson(job)).isEqualTo(before);
    assertThat(Serialization.asJson(edited)).contains("pod-group.scheduling.sigs.k8s.io");
    assertThat(adapter.isSuspended(held)).isTrue();
    assertThat(adapter.isSuspended(resumed)).isFalse();
  }
}
