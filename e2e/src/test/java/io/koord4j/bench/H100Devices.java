package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.api.device.DeviceInfo;
import io.koord4j.api.device.DeviceSpec;
import io.koord4j.api.device.DeviceTopology;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The Device object of an 8-GPU H100 node as the node agent reports it: 80 GiB per GPU, two
 * GPUs per PCIe switch, four per NUMA node and socket. The partition table is the built-in one
 * of the node's GPU model.
 */
final class H100Devices {
  private H100Devices() {}

  static Device device(String nodeName, String pool) {
    Device device = new Device();
    device.getMetadata().setName(nodeName);
    device.getMetadata().setLabels(Map.of(BenchNodes.POOL_KEY, pool));
    DeviceSpec spec = new DeviceSpec();
    spec.setDevices(IntStream.range(0, GpuPlacementBenchmark.GPUS_PER_NODE).mapToObj(minor -> gpu(nodeName, minor)).toList());
    device.setSpec(spec);
    return device;
  }

  private static DeviceInfo gpu(String nodeName, int minor) {
    DeviceInfo gpu = new DeviceInfo();
    gpu.setType(DeviceInfo.TYPE_GPU);
    gpu.setId("GPU-" + nodeName + "-" + minor);
    gpu.setMinor(minor);
    gpu.setHealth(true);
    gpu.setResources(
        Map.of(
            WellKnown.GPU_CORE, new Quantity("100"),
            WellKnown.GPU_MEMORY, new Quantity("80Gi"),
            WellKnown.GPU_MEMORY_RATIO, new Quantity("100")));
    DeviceTopology topology = new DeviceTopology();
    topology.setPcieID("pci" + minor / 2);
    topology.setNodeID(minor / 4);
    topology.setSocketID(minor / 4);
    gpu.setTopology(topology);
    return gpu;
  }
}
