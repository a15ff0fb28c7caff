package io.koord4j.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.device.Device;
import io.koord4j.api.device.DeviceInfo;
import io.koord4j.api.device.DeviceSpec;
import io.koord4j.api.device.DeviceTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeGpuInventoryTest {

  private static Device device(Map<String, String> annotations, int gpus) {
    List<DeviceInfo> infos = new ArrayList<>();
    for (int minor = gpus - 1; minor >= 0; minor--) {
      DeviceTopology topology = new DeviceTopology();
      topology.setNodeID(minor / 4);
      topology.setPcieID("pci" + minor / 2);
      DeviceInfo info = new DeviceInfo();
      info.setType(DeviceInfo.TYPE_GPU);
      info.setId("GPU-" + minor);
      info.setMinor(minor);
      info.setHealth(minor != 7);
      info.setResources(Map.of("koordinator.sh/gpu-memory", new Quantity("80Gi")));
      info.setTopology(topology);
      infos.add(info);
    }
    DeviceInfo rdma = new DeviceInfo();
    rdma.setType(DeviceInfo.TYPE_RDMA);
    infos.add(rdma);
    DeviceSpec spec = new DeviceSpec();
    spec.setDevices(infos);
    Device device = new Device();
    device.setMetadata(new ObjectMetaBuilder().withName("n1").withAnnotations(annotations).build());
    device.setSpec(spec);
    return device;
  }

  @Test
  void readsGpusTheirTopologyAndTheBuiltInTable() {
    NodeGpuInventory inventory =
        NodeGpuInventory.fromDevice(
            device(Map.of(), 8),
            Map.of("node.koordinator.sh/gpu-model", "H100", "node.koordinator.sh/gpu-partition-policy", "Honor"));

    assertThat(inventory.devices()).extracting(GpuDevice::minor).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(inventory.devices().get(5))
        .isEqualTo(new GpuDevice(5, "GPU-5", true, 80L << 30, "pci2", 1, -1));
    assertThat(inventory.healthyDevices()).hasSize(7);
    assertThat(inventory.partitionPolicy()).isEqualTo(PartitionPolicy.HONOR);
    assertThat(inventory.partitionTable().partitionsOfSize(4)).hasSize(2);
  }

  @Test
  void theAnnotatedTableWinsOverTheBuiltInOne() {
    NodeGpuInventory inventory =
        NodeGpuInventory.fromDevice(
            device(Map.of("scheduling.koordinator.sh/gpu-partitions", "{\"2\":[{\"minors\":[0,1]}]}"), 8),
            Map.of("node.koordinator.sh/gpu-model", "H100"));

    assertThat(inventory.partitionPolicy()).isEqualTo(PartitionPolicy.PREFER);
    assertThat(inventory.partitionTable().partitionsOfSize(2)).containsExactly(new GpuPartition(List.of(0, 1), "", 0, 0));
    assertThat(inventory.partitionTable().partitionsOfSize(4)).isEmpty();
  }

  @Test
  void aGpuWithoutMemoryIsRejectedByName() {
    Device device = device(Map.of(), 1);
    device.getSpec().getDevices().get(0).setResources(Map.of());

    assertThatThrownBy(() -> NodeGpuInventory.fromDevice(device, Map.of()))
        .isInstanceOf(InvalidDeviceSpecException.class)
        .hasMessage("Device n1: GPU GPU-0 has no koordinator.sh/gpu-memory");
  }
}
