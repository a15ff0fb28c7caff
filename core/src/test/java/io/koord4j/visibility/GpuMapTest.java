package io.koord4j.visibility;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class GpuMapTest {

  @Test
  void eachGpuShowsItsHolderAndOnlyWhollyFreeNvlinkPartitionsAreListed() {
    List<GpuMap.NodeGpus> map = GpuMap.of(GpuNodes.of(
        List.of(Fixtures.gpuNode("gpu-a", 8), Fixtures.gpuNode("cpu-only", 0)), List.of(),
        List.of(Fixtures.gpuHolder("trainer-0", "gpu-a", 0, 1))));

    assertThat(map).singleElement().satisfies(node -> {
      assertThat(node.node()).isEqualTo("gpu-a");
      assertThat(node.model()).isEqualTo("H100");
      assertThat(node.free()).isEqualTo(6);
      assertThat(node.gpus().get(0).holder()).isEqualTo("team/trainer-0");
      assertThat(node.gpus().get(2).holder()).isNull();
      assertThat(node.freePartitions()).containsExactly("[4,5,6,7]", "[2,3]", "[4,5]", "[6,7]");
    });
    assertThat(GpuMap.table(map)).contains("gpu-a (6/8 free)").contains("team/trainer-0").contains("[4,5,6,7] [2,3]");
  }
}
