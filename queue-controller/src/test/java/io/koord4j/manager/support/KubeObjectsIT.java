package io.koord4j.manager.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.ScalableResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.testing.LocalCluster;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Writes the manager makes on the informer's copy of an object, against the real API server. */
class KubeObjectsIT {
  private final KubernetesClient client = LocalCluster.client();
  private final String namespace = "kube-objects-" + UUID.randomUUID().toString().substring(0, 8);

  @BeforeEach
  void createNamespace() {
    client.resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
  }

  @AfterEach
  void deleteNamespace() {
    client.namespaces().withName(namespace).delete();
    client.close();
  }

  @Test
  void changesMadeOnAStaleCopyAreWrittenAndKeepWhatOthersWroteSince() {
    Job stale = client.resource(suspendedJob()).create();
    jobs().withName("train").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"written\":\"meanwhile\"}}}");

    KubeObjects.patchChanges(client, stale, resumed(stale));

    Job stored = jobs().withName("train").get();
    assertThat(stored.getSpec().getSuspend()).isFalse();
    assertThat(stored.getMetadata().getAnnotations()).containsEntry("dequeued", "now");
    assertThat(stored.getMetadata().getLabels()).containsEntry("written", "meanwhile");
  }

  @Test
  void aJobMadeAgainUnderTheSameNameIsNotChangedByAPatchOfTheOldOne() {
    Job old = client.resource(suspendedJob()).create();
    jobs().withName("train").withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
    await().until(() -> jobs().withName("train").get() == null);
    client.resource(suspendedJob()).create();

    assertThatThrownBy(() -> KubeObjects.patchChanges(client, old, resumed(old)))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("uid");
    assertThat(jobs().withName("train").get().getSpec().getSuspend()).as("the new job stays suspended").isTrue();
  }

  private NonNamespaceOperation<Job, JobList, ScalableResource<Job>> jobs() {
    return client.batch().v1().jobs().inNamespace(namespace);
  }

  private Job suspendedJob() {
    return new JobBuilder()
        .withNewMetadata().withName("train").withNamespace(namespace).endMetadata()
        .withNewSpec().withSuspend(true).withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("main").withImage("busybox").endContainer()
        .endSpec().endTemplate().endSpec().build();
  }

  private static Job resumed(Job job) {
    return new JobBuilder(job)
        .editMetadata().addToAnnotations("dequeued", "now").endMetadata()
        .editSpec().withSuspend(false).endSpec().build();
  }
}
