package io.koord4j.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.device.Device;
import io.koord4j.api.device.DeviceInfo;
import io.koord4j.api.device.DeviceSpec;
import io.koord4j.device.kube.PodGpus;
import io.koord4j.jobs.PodRequests;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The GPU resource names of older Koordinator versions ({@code kubernetes.io/gpu*}) in pods,
 * Devices and device-allocated annotations, read as their {@code koordinator.sh} successors.
 */
class DeprecatedGpuNamesTest {

  private static Pod pod(Map<String, String> requests) {
    PodBuilder pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ml").endMetadata();
    return pod.withNewSpec()
        .addNewContainer()
        .withName("main")
        .withNewResources()
        .withRequests(
            requests.entrySet().stream()
                .collect(
                    java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> new Quantity(e.getValue()))))
        .endResources()
        .endContainer()
        .endSpec()
        .build();
  }

  @Test
  void aPodAskingKubernetesIoGpu100AsksForOneWholeGpu() {
    Pod pod = pod(Map.of("kubernetes.io/gpu", "100", "cpu", "1"));

    assertThat(PodRequests.of(pod.getSpec(), "spec"))
        .containsKey("koordinator.sh/gpu")
        .doesNotContainKey("kubernetes.io/gpu");
    GpuRequest request = PodGpus.request(pod).orElseThrow();
    assertThat(request.count()).isEqualTo(1);
    assertThat(request.corePercent()).isEqualTo(100);
  }

  @Test
  void deprecatedCoreAndMemoryRatioAskForAShare() {
    Pod pod = pod(Map.of("kubernetes.io/gpu-core", "50", "kubernetes.io/gpu-memory-ratio", "50"));

    GpuRequest request = PodGpus.request(pod).orElseThrow();

    assertThat(request.count()).isEqualTo(1);
    assertThat(request.corePercent()).isEqualTo(50);
  }

  @Test
  void aDeviceListingDeprecatedNamesHasItsGpusAndTheirMemory() {
    DeviceInfo gpu = new DeviceInfo();
    gpu.setType(DeviceInfo.TYPE_GPU);
    gpu.setId("GPU-0");
    gpu.setMinor(0);
    gpu.setHealth(true);
    gpu.setResources(
        Map.of(
            "kubernetes.io/gpu-core", new Quantity("100"),
            "kubernetes.io/gpu-memory", new Quantity("16Gi"),
            "kubernetes.io/gpu-memory-ratio", new Quantity("100")));
    DeviceSpec spec = new DeviceSpec();
    spec.setDevices(List.of(gpu));
    Device device = new Device();
    device.setMetadata(new ObjectMetaBuilder().withName("n1").build());
    device.setSpec(spec);

    NodeGpuInventory inventory = NodeGpuInventory.fromDevice(device, Map.of());

    assertThat(inventory.healthyDevices()).singleElement()
        .satisfies(d -> assertThat(d.memoryBytes()).isEqualTo(16L << 30));
  }

  @Test
  void anAllocationWrittenWithDeprecatedNamesIsReadAndRewrittenWithCurrentNames() {
    NodeGpuInventory node = GpuNodes.h100("n1");
    String old =
        "{\"gpu\":[{\"minor\":1,\"resources\":{\"kubernetes.io/gpu-core\":\"60\","
            + "\"kubernetes.io/gpu-memory\":\"8Gi\",\"kubernetes.io/gpu-memory-ratio\":\"50\"}}]}";

    GpuAllocation allocation = DeviceAllocatedCodec.parse("ml/p", old, node);

    assertThat(allocation.gpus())
        .containsExactly(new AllocatedGpu(1, "GPU-n1-1", new GpuShare(60, 50, 8L << 30)));
    assertThat(allocation.toAnnotation())
        .contains("\"koordinator.sh/gpu-core\":\"60\"")
        .doesNotContain("kubernetes.io/gpu");
  }
}
