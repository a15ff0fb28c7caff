package io.koord4j.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.koord4j.testing.LocalCluster;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On the real API server, a client that reads objects without their managedFields updates and
 * patches them without losing the field ownership other managers hold.
 */
class ClientSerializationIT {
  private static KubernetesClient admin;
  private static KubernetesClient lean;
  private static String namespace;

  @BeforeAll
  static void connect() {
    admin = LocalCluster.client();
    lean =
        new KubernetesClientBuilder()
            .withConfig(admin.getConfiguration())
            .withKubernetesSerialization(ClientSerialization.withoutManagedFields())
            .build();
    namespace = LocalCluster.createNamespace(admin, "koord4j-serialization-it");
  }

  @AfterAll
  static void cleanUp() {
    if (admin != null) {
      admin.namespaces().withName(namespace).delete();
      admin.close();
      lean.close();
    }
  }

  @Test
  void anUpdateAndAPatchFromALeanReadKeepTheOtherManagersFields() {
    admin.resource(configMap("owned", "a")).fieldManager("owner-a").serverSideApply();

    ConfigMap read = lean.configMaps().inNamespace(namespace).withName("owned").get();
    assertThat(read.getMetadata().getManagedFields()).isEmpty();
    read.getData().put("updated", "yes");
    lean.resource(read).update();
    lean.configMaps().inNamespace(namespace).withName("owned")
        .edit(map -> new ConfigMapBuilder(map).addToData("patched", "yes").build());

    ConfigMap stored = admin.configMaps().inNamespace(namespace).withName("owned").get();
    assertThat(stored.getData()).containsEntry("owned", "a").containsEntry("updated", "yes")
        .containsEntry("patched", "yes");
    assertThat(managers(stored.getMetadata().getManagedFields())).contains("owner-a");
    // The ownership stays enforced: another apply of the same field by someone else conflicts.
    assertThat(conflicts(() -> admin.resource(configMap("owned", "b")).fieldManager("owner-b").serverSideApply()))
        .isTrue();
  }

  private static ConfigMap configMap(String key, String value) {
    return new ConfigMapBuilder()
        .withNewMetadata().withName("owned").withNamespace(namespace).endMetadata()
        .addToData(key, value)
        .build();
  }

  private static List<String> managers(List<ManagedFieldsEntry> entries) {
    return entries.stream().map(ManagedFieldsEntry::getManager).toList();
  }

  private static boolean conflicts(Runnable apply) {
    try {
      apply.run();
      return false;
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      return e.getCode() == 409;
    }
  }
}
