package io.koord4j.manager.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.kueue.Workload;
import io.koord4j.api.queue.QueueUnit;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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
  void readersOfAKindHearOfTheProcesssOwnWritesUntilTheyStop() {
    List<String> heard = new CopyOnWriteArrayList<>();
    Runnable stop = informers.onWrite(QueueUnit.class, unit -> heard.add(unit.getMetadata().getName()));
    informers.onWrite(Node.class, node -> heard.add("node " + node.getMetadata().getName()));

    informers.wrote(unit("first"));
    stop.run();
    informers.wrote(unit("second"));

    assertThat(heard).containsExactly("first");
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

  /**
   * A replica that starts leading rebuilds the admission state from these lists: they must ask for
   * the latest state, which a list with a limit does, not resourceVersion 0, which the API server
   * answers from its watch cache however far it lags etcd.
   */
  @Test
  void theFirstListAsksForTheLatestStateInPages() throws Exception {
    try (EmptyApiServer apiServer = new EmptyApiServer();
        SharedInformers listing = new SharedInformers(apiServer.client())) {
      listing.start(listing.of(QueueUnit.class));

      await().atMost(Duration.ofSeconds(10)).until(() -> !apiServer.lists().isEmpty());
      assertThat(apiServer.lists().get(0))
          .contains("limit=" + SharedInformers.LIST_PAGE)
          .doesNotContain("resourceVersion=0");
    }
  }

  @Test
  void aKindCountsAsListedOnceItsInformerHasListedItAndUntilTheInformersClose() throws Exception {
    try (EmptyApiServer apiServer = new EmptyApiServer();
        SharedInformers listing = new SharedInformers(apiServer.client())) {
      listing.of(Node.class);
      assertThat(listing.haveListed(QueueUnit.class)).isFalse();

      listing.start(listing.of(QueueUnit.class)).get(10, TimeUnit.SECONDS);

      assertThat(listing.haveListed(QueueUnit.class)).isTrue();
      assertThat(listing.haveListed(QueueUnit.class, Node.class)).as("Node's informer never started").isFalse();
      listing.close();
      assertThat(listing.haveListed(QueueUnit.class)).isFalse();
    }
  }

  private static QueueUnit unit(String name) {
    QueueUnit unit = new QueueUnit();
    unit.setMetadata(new ObjectMetaBuilder().withNamespace("ns").withName(name).build());
    return unit;
  }
}
