package io.koord4j.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GpuRequestParserTest {

  private static Optional<GpuRequest> parse(Map<String, String> requests) {
    return GpuRequest.fromPod("ml/p1", requests, Map.of());
  }

  private static GpuRequest parse(Map<String, String> requests, Map<String, String> annotations) {
    return GpuRequest.fromPod("ml/p1", requests, annotations).orElseThrow();
  }

  @Test
  void aPodWithoutGpuResourcesAsksForNoGpu() {
    assertThat(parse(Map.of("cpu", "4", "nvidia.com/gpu", "0"))).isEmpty();
  }

  @Test
  void nvidiaGpusAreWholeGpus() {
    GpuRequest request = parse(Map.of("nvidia.com/gpu", "4")).orElseThrow();

    assertThat(request.count()).isEqualTo(4);
    assertThat(request.isWholeGpus()).isTrue();
    assertThat(request.partitionPolicy()).isEqualTo(PartitionAllocatePolicy.BEST_EFFORT);
    assertThat(request.requiredScope()).isNull();
  }

  @Test
  void koordinatorGpuPercentMeansWholeGpusFromOneHundredUp() {
    assertThat(parse(Map.of("koordinator.sh/gpu", "200"))).contains(GpuRequest.wholeGpus(2));
    assertThat(parse(Map.of("koordinator.sh/gpu", "100"))).contains(GpuRequest.wholeGpus(1));
    assertThat(parse(Map.of("koordinator.sh/gpu", "50"))).contains(GpuRequest.share(50, 50));
  }

  @Test
  void sharesAboveOneHundredPercentMustBeWholeGpus() {
    assertThatThrownBy(() -> parse(Map.of("koordinator.sh/gpu", "150")))
        .isInstanceOf(InvalidDeviceSpecException.class)
        .hasMessage(
            "pod ml/p1: resource koordinator.sh/gpu: 150 % is more than one GPU;"
                + " shares above 100 % must be whole GPUs (a multiple of 100)");
    assertThatThrownBy(
            () -> parse(Map.of("koordinator.sh/gpu-core", "150", "koordinator.sh/gpu-memory-ratio", "100")))
        .hasMessageContaining("resource koordinator.sh/gpu-core: 150 %");
  }

  @Test
  void coreWithMemoryBytesIsAShareOfOneGpu() {
    GpuRequest request =
        parse(Map.of("koordinator.sh/gpu-core", "30", "koordinator.sh/gpu-memory", "20Gi")).orElseThrow();

    assertThat(request.count()).isEqualTo(1);
    assertThat(request.corePercent()).isEqualTo(30);
    assertThat(request.memory()).isEqualTo(MemoryRequest.bytes(20L << 30));
    assertThat(request.isWholeGpus()).isFalse();
  }

  @Test
  void coreAndRatioAboveOneHundredAskForWholeGpus() {
    assertThat(parse(Map.of("koordinator.sh/gpu-core", "200", "koordinator.sh/gpu-memory-ratio", "200")))
        .contains(GpuRequest.wholeGpus(2));
  }

  @Test
  void gpuSharedSplitsTheAmountsOverThatManyGpus() {
    GpuRequest request =
        parse(
                Map.of(
                    "koordinator.sh/gpu.shared", "2",
                    "koordinator.sh/gpu-core", "100",
                    "koordinator.sh/gpu-memory-ratio", "100"))
            .orElseThrow();

    assertThat(request.count()).isEqualTo(2);
    assertThat(request.corePercent()).isEqualTo(50);
    assertThat(request.memory()).isEqualTo(MemoryRequest.ratio(50));
    assertThatThrownBy(
            () ->
                parse(
                    Map.of(
                        "koordinator.sh/gpu.shared", "2",
                        "koordinator.sh/gpu-core", "300",
                        "koordinator.sh/gpu-memory-ratio", "100")))
        .hasMessageContaining("koordinator.sh/gpu-core: 300 over 2 GPUs is 150 % per GPU");
  }

  @Test
  void invalidCombinationsNameTheResources() {
    assertThatThrownBy(() -> parse(Map.of("koordinator.sh/gpu-core", "50")))
        .hasMessage(
            "pod ml/p1: resource koordinator.sh/gpu-core needs koordinator.sh/gpu-memory-ratio"
                + " or koordinator.sh/gpu-memory as well");
    assertThatThrownBy(() -> parse(Map.of("nvidia.com/gpu", "1", "koordinator.sh/gpu", "100")))
        .hasMessage("pod ml/p1: resource nvidia.com/gpu cannot be combined with koordinator.sh/gpu");
    assertThatThrownBy(() -> parse(Map.of("nvidia.com/gpu", "1.5")))
        .hasMessageContaining("resource nvidia.com/gpu: \"1.5\" must be a whole number");
  }

  @Test
  void annotationsGiveTheRequiredScopeAndPartitionPolicy() {
    GpuRequest request =
        parse(
            Map.of("nvidia.com/gpu", "2"),
            Map.of(
                "scheduling.koordinator.sh/device-allocate-hint", "{\"gpu\":{\"requiredTopologyScope\":\"PCIe\"}}",
                "scheduling.koordinator.sh/gpu-partition-spec",
                "{\"allocatePolicy\":\"Restricted\",\"ringBusBandwidth\":\"200Gi\"}"));

    assertThat(request.requiredScope()).isEqualTo(TopologyScope.PCIE);
    assertThat(request.partitionPolicy()).isEqualTo(PartitionAllocatePolicy.RESTRICTED);
    assertThat(request.minRingBusBandwidth()).isEqualTo(200L << 30);
  }

  @Test
  void malformedAnnotationsNameThePodAndAnnotation() {
    assertThatThrownBy(
            () -> parse(Map.of("nvidia.com/gpu", "1"), Map.of("scheduling.koordinator.sh/device-allocate-hint", "{gpu")))
        .isInstanceOf(InvalidDeviceSpecException.class)
        .hasMessageStartingWith(
            "pod ml/p1: annotation scheduling.koordinator.sh/device-allocate-hint is not valid JSON");
    assertThatThrownBy(
            () ->
                parse(
                    Map.of("nvidia.com/gpu", "1"),
                    Map.of("scheduling.koordinator.sh/device-allocate-hint", "{\"gpu\":{\"requiredTopologyScope\":\"Rack\"}}")))
        .hasMessage(
            "pod ml/p1: annotation scheduling.koordinator.sh/device-allocate-hint: requiredTopologyScope"
                + " \"Rack\" is not one of Device, PCIe, NUMANode, Node");
    assertThatThrownBy(
            () ->
                parse(
                    Map.of("nvidia.com/gpu", "1"),
                    Map.of("scheduling.koordinator.sh/gpu-partition-spec", "{\"allocatePolicy\":\"Always\"}")))
        .hasMessageContaining("allocatePolicy \"Always\" is not one of Restricted, BestEffort");
  }

  @Test
  void deviceScopeHoldsOneGpu() {
    assertThatThrownBy(
            () ->
                parse(
                    Map.of("nvidia.com/gpu", "2"),
                    Map.of("scheduling.koordinator.sh/device-allocate-hint", "{\"gpu\":{\"requiredTopologyScope\":\"Device\"}}")))
        .hasMessageContaining("requiredTopologyScope Device holds one GPU, but the pod asks for 2");
  }
}
