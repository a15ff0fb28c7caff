package io.koord4j.manager.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.testing.LocalCluster;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Writes the manager makes on the informer's copy of an object, against the real API server. */
class KubeObjectsIT {
  private final KubernetesClient client = LocalCluster.client();
  private final String namespace = "kube-objects-" + UUID.randomUUID().toString().substring(0, 8);

  @AfterEach
  void deleteNamespace() {
    client.namespaces().withName(namespace).delete();
    client.close();
  }

  @Test
  void changesMadeOnAStaleCopyAreWrittenAndKeepWhatOthersWroteSince() {
    client.resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).create();
    Job stale = client.resource(new JobBuilder()
        .withNewMetadata().withName("train").withNamespace(namespace).endMetadata()
        .withNewSpec().withSuspend(true).withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("main").withImage("busybox").endContainer()
        .endSpec().endTemplate().endSpec().build()).create();
    client.batch().v1().jobs().inNamespace(namespace).withName("train")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"written\":\"meanwhile\"}}}");

    Job resumed = new JobBuilder(stale)
        .editMetadata().addToAnnotations("dequeued", "now").endMetadata()
        .editSpec().withSuspend(false).endSpec().build();
    KubeObjects.patchChanges(client, stale, resumed);

    Job stored = client.batch().v1().jobs().inNamespace(namespace).withName("train").get();
    assertThat(stored.getSpec().getSuspend()).isFalse();
    assertThat(stored.getMetadata().getAnnotations()).containsEntry("dequeued", "now");
    assertThat(stored.getMetadata().getLabels()).containsEntry("written", "meanwhile");
  }
}
