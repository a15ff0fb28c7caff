package io.koord4j.yarn;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.yarn.sync.BatchResources;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubeViewTest {
  private static final long GIB = 1L << 30;

  @Test
  void originIsTheNodesBatchAllocatable() {
    Node node = node(Map.of());

    assertThat(KubeView.origin(node)).isEqualTo(new BatchResources(6000, 12 * GIB));
  }

  @Test
  void koordinatorsOriginRecordWinsOverAllocatableThatHadThirdPartiesTakenOff() {
    Node node = node(Map.of(WellKnown.ORIGIN_EXTENDED_ALLOCATABLE,
        "{\"resources\":{\"kubernetes.io/batch-cpu\":\"10k\",\"kubernetes.io/batch-memory\":\"20Gi\"}}"));

    assertThat(KubeView.origin(node)).isEqualTo(new BatchResources(10_000, 20 * GIB));
  }

  @Test
  void aNodeWithoutBatchResourcesHasNone() {
    assertThat(KubeView.origin(new NodeBuilder().withNewMetadata().withName("n").endMetadata().build()))
        .isEqualTo(BatchResources.ZERO);
  }

  @Test
  void aWaitingPodMayGoToNodesItsSelectorMatches() {
    Node node = new NodeBuilder().withNewMetadata().withName("n").withLabels(Map.of("pool", "batch", "zone", "a"))
        .endMetadata().build();

    assertThat(KubeView.mayGoTo(pod(null), node)).isTrue();
    assertThat(KubeView.mayGoTo(pod(Map.of("pool", "batch")), node)).isTrue();
    assertThat(KubeView.mayGoTo(pod(Map.of("pool", "batch", "zone", "b")), node)).isFalse();
  }

  private static Pod pod(Map<String, String> nodeSelector) {
    return new PodBuilder().withNewMetadata().withName("p").endMetadata()
        .withNewSpec().withNodeSelector(nodeSelector).endSpec().build();
  }

  private static Node node(Map<String, String> annotations) {
    return new NodeBuilder()
        .withNewMetadata().withName("n").withAnnotations(annotations).endMetadata()
        .withNewStatus()
        .withAllocatable(Map.of(
            "cpu", new Quantity("8"),
            "kubernetes.io/batch-cpu", new Quantity("6000"),
            "kubernetes.io/batch-memory", new Quantity("12Gi")))
        .endStatus()
        .build();
  }
}
