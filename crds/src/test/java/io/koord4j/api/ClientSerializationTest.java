package io.koord4j.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.koord4j.api.quota.ElasticQuota;
import org.junit.jupiter.api.Test;

/** Objects read and written by koord4j's clients keep everything but their managedFields. */
class ClientSerializationTest {
  private static final String POD =
      """
      {"apiVersion": "v1", "kind": "Pod",
       "metadata": {"name": "p", "namespace": "ns", "labels": {"app": "a"},
         "managedFields": [{"manager": "kube-controller-manager", "operation": "Update",
           "apiVersion": "v1", "fieldsType": "FieldsV1",
           "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}}}]},
       "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "i"}]}}
      """;

  private final KubernetesSerialization serialization = ClientSerialization.withoutManagedFields();

  @Test
  void aTypedObjectIsReadWithoutItsManagedFields() {
    Pod pod = serialization.unmarshal(POD, Pod.class);

    assertThat(pod.getMetadata().getManagedFields()).isEmpty();
    assertThat(pod.getMetadata().getLabels()).containsEntry("app", "a");
    assertThat(pod.getSpec().getNodeName()).isEqualTo("n1");
  }

  @Test
  void aGenericObjectIsReadWithoutItsManagedFields() {
    GenericKubernetesResource object = serialization.unmarshal(POD, GenericKubernetesResource.class);

    assertThat(object.getMetadata().getManagedFields()).isEmpty();
    assertThat(object.getMetadata().getName()).isEqualTo("p");
    assertThat(object.getAdditionalProperties()).containsKey("spec");
  }

  @Test
  void aCustomResourceIsReadWithoutItsManagedFields() {
    String quota = POD.replace("\"apiVersion\": \"v1\", \"kind\": \"Pod\"",
        "\"apiVersion\": \"scheduling.sigs.k8s.io/v1alpha1\", \"kind\": \"ElasticQuota\"")
        .replace("\"spec\": {\"nodeName\": \"n1\", \"containers\": [{\"name\": \"c\", \"image\": \"i\"}]}",
            "\"spec\": {\"min\": {\"cpu\": \"2\"}}");

    ElasticQuota read = serialization.unmarshal(quota, ElasticQuota.class);

    assertThat(read.getMetadata().getManagedFields()).isEmpty();
    assertThat(read.getSpec().getMin()).containsKey("cpu");
  }

  @Test
  void anObjectIsWrittenWithoutItsManagedFields() {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName("p")
            .addToLabels("app", "a")
            .withManagedFields(new ManagedFieldsEntryBuilder().withManager("someone").build())
            .endMetadata()
            .build();

    String json = serialization.asJson(pod);

    assertThat(json).doesNotContain("managedFields").contains("\"app\":\"a\"");
  }
}
