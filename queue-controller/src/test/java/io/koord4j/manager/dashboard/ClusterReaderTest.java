package io.koord4j.manager.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.manager.support.EmptyApiServer;
import io.koord4j.manager.support.SharedInformers;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ClusterReaderTest {
  @Test
  void withoutTheLeadersInformersEveryKindIsListedPageByPage() throws Exception {
    try (EmptyApiServer apiServer = new EmptyApiServer()) {
      new ClusterReader(apiServer.client(), Optional.empty()).get();

      assertThat(apiServer.lists())
          .anySatisfy(list -> assertThat(list).startsWith("/api/v1/nodes?").contains("limit=" + SharedInformers.LIST_PAGE)
              .doesNotContain("continue="))
          .anySatisfy(list -> assertThat(list).startsWith("/api/v1/nodes?").contains("continue=" + EmptyApiServer.CONTINUE))
          .anySatisfy(list -> assertThat(list).startsWith("/api/v1/pods?").contains("fieldSelector="))
          .anySatisfy(list -> assertThat(list).contains("/queueunits?"));
    }
  }

  @Test
  void onceTheLeadersInformersHaveListedTheApiServerIsNotAsked() throws Exception {
    try (EmptyApiServer informed = new EmptyApiServer();
        EmptyApiServer listed = new EmptyApiServer();
        SharedInformers informers = new SharedInformers(informed.client())) {
      ClusterReader reader = new ClusterReader(listed.client(), Optional.of(informers));
      reader.get();
      assertThat(listed.lists()).as("the informers have not listed yet").isNotEmpty();
      listed.lists().clear();

      CompletableFuture.allOf(Stream.of(Queue.class, QueueUnit.class, ElasticQuota.class, Node.class, Pod.class)
              .map(kind -> informers.start(informers.of(kind)))
              .toArray(CompletableFuture[]::new))
          .get(10, TimeUnit.SECONDS);
      DashboardState.Inputs inputs = reader.get();

      assertThat(listed.lists()).isEmpty();
      assertThat(inputs.devices()).as("no Device informer runs").isEmpty();
    }
  }

  @Test
  void theCachedPodsAreThoseOnANodeThatHaveNotFinished() {
    assertThat(ClusterReader.boundAndUnfinished(pod("node-a", "Running"))).isTrue();
    assertThat(ClusterReader.boundAndUnfinished(pod("node-a", null))).isTrue();
    assertThat(ClusterReader.boundAndUnfinished(pod(null, "Pending"))).isFalse();
    assertThat(ClusterReader.boundAndUnfinished(pod("", "Pending"))).isFalse();
    assertThat(ClusterReader.boundAndUnfinished(pod("node-a", "Succeeded"))).isFalse();
    assertThat(ClusterReader.boundAndUnfinished(pod("node-a", "Failed"))).isFalse();
  }

  private static Pod pod(String node, String phase) {
    return new PodBuilder().withNewSpec().withNodeName(node).endSpec().withNewStatus().withPhase(phase).endStatus().build();
  }
}
