package io.koord4j.manager.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.queue.QueueUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SharedInformersTest {
  /** Informers are made without contacting the API server; nothing here starts one. */
  private final KubernetesClient client =
      new KubernetesClientBuilder()
          .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build())
          .build();

  private final SharedInformers informers = new SharedInformers(client);

  @AfterEach
  void close() {
    informers.close();
    client.close();
  }

  @Test
  void everyReaderOfAKindGetsTheSameInformer() {
    assertThat(informers.of(QueueUnit.class)).isSameAs(informers.of(QueueUnit.class));
    assertThat(informers.of(Node.class)).isSameAs(informers.of(Node.class));
    assertThat(informers.of(Workload.CONTEXT)).isSameAs(informers.of(Workload.CONTEXT));
    assertThat(informers.of(AdmissionCheck.CONTEXT))
        .isNotSameAs(informers.of(Workload.CONTEXT));
  }

  @Test
  void aKindCountsAsWatchedOnlyOnceStarted() {
    informers.of(QueueUnit.class);
    informers.of(Node.class);

    assertThat(informers.watchedKinds()).isEmpty();
  }

  @Test
  void aKindReadInOneNamespaceIsSharedThereAndRefusedElsewhere() {
    assertThat(informers.of(ConfigMap.class, "koord4j-system"))
        .isSameAs(informers.of(ConfigMap.class, "koord4j-system"));

    assertThatThrownBy(() -> informers.of(ConfigMap.class, "other"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("configmaps is read in namespace koord4j-system already, not in namespace other");
    assertThatThrownBy(() -> informers.of(ConfigMap.class))
        .hasMessage("configmaps is read in namespace koord4j-system already, not in all namespaces");
  }
}
