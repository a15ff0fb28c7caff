package io.koord4j.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class GpuPartitionTableTest {

  @Test
  void parsesTheDeviceAnnotationBestScoreFirst() {
    String annotation =
        "{\"2\":[{\"minors\":[2,3],\"gpuLinkType\":\"NVLink\",\"ringBusBandwidth\":\"200Gi\",\"allocationScore\":1},"
            + "{\"minors\":[1,0],\"gpuLinkType\":\"NVLink\",\"ringBusBandwidth\":\"400Gi\",\"allocationScore\":2}],"
            + "\"1\":[{\"minors\":[0]},{\"minors\":[1]}]}";

    GpuPartitionTable table = GpuPartitionTable.parse("Device n1", annotation);

    assertThat(table.partitionsOfSize(2))
        .containsExactly(
            new GpuPartition(List.of(0, 1), "NVLink", 400L << 30, 2),
            new GpuPartition(List.of(2, 3), "NVLink", 200L << 30, 1));
    assertThat(table.partitionsOfSize(1)).hasSize(2);
    assertThat(table.partitionsOfSize(4)).isEmpty();
  }

  @Test
  void malformedTablesNameTheDeviceAndAnnotation() {
    assertThatThrownBy(() -> GpuPartitionTable.parse("Device n1", "[1,2"))
        .isInstanceOf(InvalidDeviceSpecException.class)
        .hasMessageStartingWith("Device n1: annotation scheduling.koordinator.sh/gpu-partitions is not valid JSON");
    assertThatThrownBy(() -> GpuPartitionTable.parse("Device n1", "{\"4\":[{\"minors\":[0,1]}]}"))
        .hasMessage(
            "Device n1: annotation scheduling.koordinator.sh/gpu-partitions: partition [0, 1] is listed"
                + " under \"4\" but has 2 GPUs");
    assertThatThrownBy(() -> GpuPartitionTable.parse("Device n1", "{\"2\":[{\"gpuLinkType\":\"NVLink\"}]}"))
        .hasMessageContaining("every partition needs a non-empty \"minors\" list");
  }

  @Test
  void hopperBoardsOfEightGpusHaveTheBuiltInTable() {
    GpuPartitionTable table = GpuPartitionTable.builtIn("H800", 8);

    assertThat(table.partitionsOfSize(8)).containsExactly(GpuPartition.nvlink(0, 1, 2, 3, 4, 5, 6, 7));
    assertThat(table.partitionsOfSize(4))
        .containsExactly(GpuPartition.nvlink(0, 1, 2, 3), GpuPartition.nvlink(4, 5, 6, 7));
    assertThat(table.partitionsOfSize(2)).hasSize(4);
    assertThat(table.partitionsOfSize(1)).hasSize(8);
    assertThat(GpuPartitionTable.builtIn("A100", 8).isEmpty()).isTrue();
    assertThat(GpuPartitionTable.builtIn("H100", 4).isEmpty()).isTrue();
  }
}
