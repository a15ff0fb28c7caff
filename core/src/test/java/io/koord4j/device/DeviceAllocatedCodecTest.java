package io.koord4j.device;

import static io.koord4j.device.GpuNodes.GPU_MEMORY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeviceAllocatedCodecTest {
  private final NodeGpuInventory node = GpuNodes.h100("n1");

  @Test
  void rendersKoordinatorsAnnotation() {
    GpuAllocation allocation =
        new GpuAllocation(List.of(new AllocatedGpu(0, "GPU-n1-0", new GpuShare(100, 100, GPU_MEMORY))));

    assertThat(allocation.toAnnotation())
        .isEqualTo(
            "{\"gpu\":[{\"minor\":0,\"id\":\"GPU-n1-0\",\"resources\":{"
                + "\"koordinator.sh/gpu-core\":\"100\",\"koordinator.sh/gpu-memory-ratio\":\"100\","
                + "\"koordinator.sh/gpu-memory\":\"80Gi\"}}]}");
  }

  @Test
  void roundTripsAllocationsOfTheAllocator() {
    GpuAllocation whole =
        GpuAllocator.allocate(node, NodeGpuUsage.NONE, GpuRequest.wholeGpus(4)).allocation().orElseThrow();
    GpuAllocation shared =
        GpuAllocator.allocate(node, NodeGpuUsage.NONE, GpuRequest.share(30, 25)).allocation().orElseThrow();

    assertThat(DeviceAllocatedCodec.parse("ml/p1", whole.toAnnotation(), node)).isEqualTo(whole);
    assertThat(DeviceAllocatedCodec.parse("ml/p2", shared.toAnnotation(), node)).isEqualTo(shared);
  }

  @Test
  void completesMemoryFromTheGpuSizeAndIgnoresOtherDeviceTypes() {
    String annotation =
        "{\"gpu\":[{\"minor\":3,\"resources\":{\"koordinator.sh/gpu-core\":50,"
            + "\"koordinator.sh/gpu-memory-ratio\":50}}],"
            + "\"rdma\":[{\"minor\":0,\"id\":\"0000:09:00.0\",\"resources\":{\"koordinator.sh/rdma\":100}}]}";

    GpuAllocation allocation = DeviceAllocatedCodec.parse("ml/p1", annotation, node);

    assertThat(allocation.gpus())
        .containsExactly(new AllocatedGpu(3, "GPU-n1-3", new GpuShare(50, 50, 40L << 30)));
  }

  @Test
  void malformedAnnotationsNameThePodAndAnnotation() {
    assertThatThrownBy(() -> DeviceAllocatedCodec.parse("ml/p1", "{\"gpu\":[", node))
        .isInstanceOf(InvalidDeviceSpecException.class)
        .hasMessageStartingWith("pod ml/p1: annotation scheduling.koordinator.sh/device-allocated is not valid JSON");
    assertThatThrownBy(() -> DeviceAllocatedCodec.parse("ml/p1", "{\"gpu\":{}}", node))
        .hasMessage("pod ml/p1: annotation scheduling.koordinator.sh/device-allocated: \"gpu\" must be a list");
    assertThatThrownBy(() -> DeviceAllocatedCodec.parse("ml/p1", "{\"gpu\":[{\"resources\":{}}]}", node))
        .hasMessageContaining("every GPU entry needs an integer \"minor\"");
    assertThatThrownBy(
            () ->
                DeviceAllocatedCodec.parse(
                    "ml/p1", "{\"gpu\":[{\"minor\":9,\"resources\":{\"koordinator.sh/gpu-core\":\"100\"}}]}", node))
        .hasMessageContaining("node n1 has no GPU with minor 9");
    assertThatThrownBy(
            () ->
                DeviceAllocatedCodec.parse(
                    "ml/p1",
                    "{\"gpu\":[{\"minor\":1,\"resources\":{\"koordinator.sh/gpu-core\":\"lots\",\"koordinator.sh/gpu-memory-ratio\":\"100\"}}]}",
                    node))
        .hasMessageContaining("GPU 1 resource koordinator.sh/gpu-core: \"lots\" is not a valid quantity");
  }

  @Test
  void usageIsRebuiltFromPodsAndNamesTheBrokenOne() {
    Map<String, String> pods = new LinkedHashMap<>();
    pods.put("ml/a", shareOfGpu0(30));
    pods.put("ml/b", shareOfGpu0(20));

    NodeGpuUsage usage = NodeGpuUsage.fromPods(node, pods);

    assertThat(usage.of(0)).isEqualTo(new GpuShare(50, 50, 40L << 30));
    assertThat(usage.isFree(1)).isTrue();
    assertThat(usage.release(DeviceAllocatedCodec.parse("ml/a", pods.get("ml/a"), node)).of(0).corePercent())
        .isEqualTo(20);

    pods.put("ml/c", "not json");
    assertThatThrownBy(() -> NodeGpuUsage.fromPods(node, pods)).hasMessageStartingWith("pod ml/c: annotation");
  }

  private static String shareOfGpu0(int percent) {
    return "{\"gpu\":[{\"minor\":0,\"resources\":{\"koordinator.sh/gpu-core\":\"" + percent
        + "\",\"koordinator.sh/gpu-memory-ratio\":\"" + percent + "\"}}]}";
  }
}
