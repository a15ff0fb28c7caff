package io.koord4j.scheduler.plugins;

import static io.koord4j.scheduler.Fixtures.node;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerImage;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ImageLocalityTest {

  private static final long MIB = 1024L * 1024;

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("no node holds the pod's images",
            List.of("web:v1"), List.of(List.of(image("db:v1", 800)), List.of()), List.of(0L, 0L)),
        Arguments.of("an image on one node of two counts half its size",
            List.of("web:v1"), List.of(List.of(image("web:v1", 300)), List.of()), List.of(12L, 0L)),
        Arguments.of("an image on every node counts its whole size",
            List.of("web:v1"), List.of(List.of(image("web:v1", 500)), List.of(image("web:v1", 500))),
            List.of(48L, 48L)),
        Arguments.of("an image smaller than 23 MiB scores nothing",
            List.of("web:v1"), List.of(List.of(image("web:v1", 40)), List.of()), List.of(0L, 0L)),
        Arguments.of("an image named without a tag is the latest tag",
            List.of("registry.io:5000/web"), List.of(List.of(image("registry.io:5000/web:latest", 2000)), List.of()),
            List.of(100L, 0L)),
        Arguments.of("the ceiling grows with the number of containers",
            List.of("web:v1", "sidecar:v1"),
            List.of(List.of(image("web:v1", 2000)), List.of(image("sidecar:v1", 100))),
            List.of(49L, 1L)),
        Arguments.of("two containers of one image count it twice",
            List.of("web:v1", "web:v1"), List.of(List.of(image("web:v1", 1000)), List.of()),
            List.of(49L, 0L)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void prefersNodesHoldingLargeImagesFewOtherNodesHold(
      String scenario, List<String> podImages, List<List<ContainerImage>> nodeImages, List<Long> expected) {
    List<NodeInfo> nodes =
        Stream.iterate(0, i -> i + 1).limit(nodeImages.size())
            .map(i -> nodeHolding("n" + i, nodeImages.get(i)))
            .toList();
    Pod pod = podWithImages(podImages);
    ImageLocality plugin = new ImageLocality();
    CycleState state = new CycleState();
    state.setNodes(nodes);
    plugin.preScore(state, pod, nodes);
    assertThat(nodes.stream().map(node -> plugin.score(state, pod, node)).toList()).as(scenario).isEqualTo(expected);
  }

  private static ContainerImage image(String name, long mib) {
    return new ContainerImage(List.of(name), mib * MIB);
  }

  private static NodeInfo nodeHolding(String name, List<ContainerImage> images) {
    return NodeInfo.of(new NodeBuilder(node(name, "8", "8Gi")).editStatus().withImages(images).endStatus().build());
  }

  private static Pod podWithImages(List<String> images) {
    return new PodBuilder(pod("p", "1", "1Gi"))
        .editSpec()
        .withContainers(Stream.iterate(0, i -> i + 1).limit(images.size())
            .map(i -> new ContainerBuilder().withName("c" + i).withImage(images.get(i)).build()).toList())
        .endSpec()
        .build();
  }
}
