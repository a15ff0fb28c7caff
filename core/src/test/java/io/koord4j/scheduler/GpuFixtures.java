package io.koord4j.scheduler;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.device.Device;
import io.koord4j.api.device.DeviceInfo;
import io.koord4j.api.device.DeviceSpec;
import io.koord4j.api.device.DeviceTopology;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;

/**
 * H100 nodes and their Device objects for tests: eight 80 GiB GPUs, two per PCIe switch, four per
 * NUMA node, with the NVLink partition table of 8-GPU Hopper boards.
 */
public final class GpuFixtures {
  private GpuFixtures() {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The H100 table as Koordinator writes it: all eight, halves, pairs and singles. */
  public static final String H100_PARTITIONS =
      "{\"1\":" + partitions("[0]", "[1]", "[2]", "[3]", "[4]", "[5]", "[6]", "[7]")
          + ",\"2\":" + partitions("[0,1]", "[2,3]", "[4,5]", "[6,7]")
          + ",\"4\":" + partitions("[0,1,2,3]", "[4,5,6,7]")
          + ",\"8\":" + partitions("[0,1,2,3,4,5,6,7]") + "}";

  /** A node of 96 CPUs labelled as an H100 node, with eight {@code nvidia.com/gpu}. */
  public static Node h100Node(String name) {
    Node node = Fixtures.node(name, "96", "1Ti");
    node.getMetadata().getLabels().put(WellKnown.GPU_MODEL, "H100");
    node.getStatus().getAllocatable().put(WellKnown.NVIDIA_GPU, new Quantity("8"));
    return node;
  }

  /** The Device object of an H100 node, with the partition table as an annotation. */
  public static Device h100Device(String nodeName) {
    Device device = device(nodeName, 8);
    device.getMetadata().setAnnotations(new HashMap<>(Map.of(WellKnown.GPU_PARTITIONS, H100_PARTITIONS)));
    return device;
  }

  /** A Device object of {@code count} GPUs and no partition table. */
  public static Device device(String nodeName, int count) {
    Device device = new Device();
    device.getMetadata().setName(nodeName);
    DeviceSpec spec = new DeviceSpec();
    spec.setDevices(IntStream.range(0, count).mapToObj(minor -> gpu(nodeName, minor)).toList());
    device.setSpec(spec);
    return device;
  }

  /** A pod asking for {@code gpuResources} (and a little CPU), with {@code annotations}. */
  public static Pod gpuPod(String name, Map<String, String> gpuResources, Map<String, String> annotations) {
    return Fixtures.withAnnotations(withGpus(Fixtures.pod(name, "1", "1Gi"), gpuResources), annotations);
  }

  /**
   * The pod with {@code gpuResources} added to its first container's requests, and to its limits,
   * which extended resources must have equal to their requests.
   */
  public static Pod withGpus(Pod pod, Map<String, String> gpuResources) {
    Map<String, Quantity> gpus = new LinkedHashMap<>();
    gpuResources.forEach((resource, amount) -> gpus.put(resource, new Quantity(amount)));
    return new PodBuilder(pod)
        .editSpec()
        .editFirstContainer()
        .editResources()
        .addToRequests(gpus)
        .addToLimits(gpus)
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  /** The minors a {@code device-allocated} annotation names, in its order. */
  public static List<Integer> minors(String deviceAllocated) {
    try {
      JsonNode gpus = JSON.readTree(deviceAllocated).get("gpu");
      return StreamSupport.stream(gpus.spliterator(), false).map(gpu -> gpu.get("minor").intValue()).toList();
    } catch (JsonProcessingException e) {
      throw new AssertionError("not JSON: " + deviceAllocated, e);
    }
  }

  private static DeviceInfo gpu(String nodeName, int minor) {
    DeviceInfo info = new DeviceInfo();
    info.setType(DeviceInfo.TYPE_GPU);
    info.setId("GPU-" + nodeName + "-" + minor);
    info.setMinor(minor);
    info.setHealth(true);
    info.setResources(
        new HashMap<>(
            Map.of(
                WellKnown.GPU_CORE, new Quantity("100"),
                WellKnown.GPU_MEMORY_RATIO, new Quantity("100"),
                WellKnown.GPU_MEMORY, new Quantity("80Gi"))));
    DeviceTopology topology = new DeviceTopology();
    topology.setSocketID(minor / 4);
    topology.setNodeID(minor / 4);
    topology.setPcieID("pci" + minor / 2);
    topology.setBusID(String.format("0000:%02x:00.0", 0x10 + minor));
    info.setTopology(topology);
    return info;
  }

  private static String partitions(String... minorLists) {
    StringBuilder json = new StringBuilder("[");
    for (String minors : minorLists) {
      json.append(json.length() > 1 ? "," : "")
          .append("{\"minors\":").append(minors)
          .append(",\"gpuLinkType\":\"NVLink\",\"allocationScore\":1}");
    }
    return json.append("]").toString();
  }
}
