package io.koord4j.koordlet.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.device.GpuDevice;
import io.koord4j.device.GpuPartition;
import io.koord4j.device.NodeGpuInventory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Recorded-style nvidia-smi reports of two 8-GPU machines, read back by koord-scheduler's own parser. */
class NvidiaInventoryTest {
  private static final long H100_MEMORY = 81_559L << 20;

  @Test
  void hgxH100BoardIsOneNvlinkDomainWithTwoNumaNodes() {
    NvidiaInventory inventory = inventory("hgx-h100-8gpu");
    List<GpuInfo> gpus = inventory.gpus();

    assertThat(gpus).hasSize(8).extracting(GpuInfo::minor).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(gpus.get(0).productName()).isEqualTo("NVIDIA H100 80GB HBM3");
    assertThat(gpus.get(0).memoryBytes()).isEqualTo(H100_MEMORY);
    assertThat(gpus.get(0).busId()).isEqualTo("00000000:18:00.0");
    assertThat(gpus).extracting(GpuInfo::numaNode).containsExactly(0, 0, 0, 0, 1, 1, 1, 1);
    assertThat(gpus.get(0).uuid()).startsWith("GPU-");
    assertThat(inventory.allNvlinked()).isTrue();

    Device device = DeviceObjects.build("gpu-node-1", gpus, inventory);
    NodeGpuInventory read = NodeGpuInventory.fromDevice(device, Map.of(WellKnown.GPU_MODEL, "H100"));

    assertThat(read.devices()).hasSize(8);
    GpuDevice first = read.devices().get(0);
    assertThat(first.uuid()).isEqualTo(gpus.get(0).uuid());
    assertThat(first.memoryBytes()).isEqualTo(H100_MEMORY);
    assertThat(first.numaNode()).isZero();
    assertThat(read.devices().get(7).numaNode()).isEqualTo(1);
    assertThat(read.healthyDevices()).hasSize(8);
    assertThat(read.partitionTable().partitionsOfSize(8)).extracting(GpuPartition::minors)
        .containsExactly(List.of(0, 1, 2, 3, 4, 5, 6, 7));
    assertThat(read.partitionTable().partitionsOfSize(4)).extracting(GpuPartition::minors)
        .containsExactly(List.of(0, 1, 2, 3), List.of(4, 5, 6, 7));
    assertThat(read.partitionTable().partitionsOfSize(2)).hasSize(4);
    assertThat(read.partitionTable().partitionsOfSize(1)).hasSize(8);
    assertThat(DeviceObjects.model(gpus.get(0).productName())).isEqualTo("H100");
  }

  @Test
  void pcieA100WithNvlinkBridgesHasPairPartitionsOnly() {
    NvidiaInventory inventory = inventory("pcie-a100-8gpu-nvlink-bridges");
    List<GpuInfo> gpus = inventory.gpus();

    assertThat(inventory.allNvlinked()).isFalse();
    assertThat(inventory.nvlinkPairs()).extracting(pair -> List.of(pair[0], pair[1]))
        .containsExactly(List.of(0, 1), List.of(2, 3), List.of(4, 5), List.of(6, 7));
    NodeGpuInventory read =
        NodeGpuInventory.fromDevice(DeviceObjects.build("gpu-node-2", gpus, inventory), Map.of(WellKnown.GPU_MODEL, "A100"));

    assertThat(read.partitionTable().partitionsOfSize(4)).isEmpty();
    assertThat(read.partitionTable().partitionsOfSize(2)).extracting(GpuPartition::minors)
        .containsExactly(List.of(0, 1), List.of(2, 3), List.of(4, 5), List.of(6, 7));
    assertThat(read.devices()).extracting(GpuDevice::numaNode).containsExactly(0, 0, 0, 0, 1, 1, 1, 1);
    assertThat(read.devices().get(0).memoryBytes()).isEqualTo(81_920L << 20);
  }

  @Test
  void malformedReportsNameWhatIsWrong() {
    assertThatThrownBy(() -> NvidiaSmiXml.parse("<nvidia_smi_log><gpu id=\"0\"><uuid>x</uuid></gpu></nvidia_smi_log>"))
        .hasMessageContaining("<gpu id=\"0\">").hasMessageContaining("<minor_number>");
    assertThatThrownBy(() -> NvidiaSmiXml.parse("<html/>")).hasMessageContaining("<nvidia_smi_log>");
    assertThatThrownBy(() -> NvidiaTopology.parse("\tGPU0\tGPU1\nGPU0\t X\tQQ\nGPU1\tQQ\t X\n"))
        .hasMessageContaining("unknown link \"QQ\"");
  }

  private static NvidiaInventory inventory(String machine) {
    return new NvidiaInventory(NvidiaSmiCommand.saved(Path.of("src/test/resources/nvidia", machine)));
  }
}
