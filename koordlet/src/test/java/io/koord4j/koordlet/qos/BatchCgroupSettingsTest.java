package io.koord4j.koordlet.qos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.testing.TestPods;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchCgroupSettingsTest {
  @Test
  void podValuesComeFromTheSumOfBatchRequestsAndLimits() {
    Pod pod = pod(
        container("a", Map.of("kubernetes.io/batch-cpu", "1500", "kubernetes.io/batch-memory", "1Gi"),
            Map.of("kubernetes.io/batch-cpu", "2000", "kubernetes.io/batch-memory", "2Gi")),
        container("b", Map.of("kubernetes.io/batch-cpu", "500"),
            Map.of("kubernetes.io/batch-cpu", "1000", "kubernetes.io/batch-memory", "1Gi")));

    assertThat(BatchCgroupSettings.requestsBatch(pod)).isTrue();
    assertThat(BatchCgroupSettings.ofPod(pod)).isEqualTo(new BatchCgroupSettings(2048, 300_000, 3L << 30));
    assertThat(BatchCgroupSettings.ofContainer(pod.getSpec().getContainers().get(1)))
        .isEqualTo(new BatchCgroupSettings(512, 100_000, 1L << 30));
  }

  @Test
  void oneUnlimitedContainerLeavesThePodUnlimited() {
    Pod pod = pod(
        container("a", Map.of("kubernetes.io/batch-cpu", "1"), Map.of("kubernetes.io/batch-cpu", "5")),
        container("b", Map.of(), Map.of()));
    BatchCgroupSettings settings = BatchCgroupSettings.ofPod(pod);
    assertThat(settings.cpuShares()).isEqualTo(2);
    assertThat(settings.cfsQuotaUs()).isEqualTo(-1);
    assertThat(settings.memoryLimitBytes()).isEqualTo(-1);
    assertThat(BatchCgroupSettings.ofContainer(pod.getSpec().getContainers().get(0)).cfsQuotaUs()).isEqualTo(1_000);
  }

  @Test
  void noBatchResourcesNoSettingsAndFractionsAreNamed() {
    assertThat(BatchCgroupSettings.requestsBatch(pod(container("a", Map.of("cpu", "1"), Map.of())))).isFalse();
    Pod fractional = pod(container("a", Map.of("kubernetes.io/batch-cpu", "0.5"), Map.of()));
    assertThatThrownBy(() -> BatchCgroupSettings.ofPod(fractional))
        .hasMessageContaining("container a: resources.requests[kubernetes.io/batch-cpu] must be a whole number");
  }

  private static Pod pod(Container... containers) {
    return new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec().withContainers(containers).endSpec().build();
  }

  private static Container container(String name, Map<String, String> requests, Map<String, String> limits) {
    return new ContainerBuilder().withName(name).withNewResources()
        .withRequests(TestPods.quantities(requests)).withLimits(TestPods.quantities(limits)).endResources().build();
  }
}
