package io.koord4j.koordlet.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubeQosTest {
  @Test
  void derivesTheClassFromRequestsAndLimits() {
    assertThat(KubeQos.of(pod(Map.of(), Map.of()))).isEqualTo(KubeQos.BEST_EFFORT);
    assertThat(KubeQos.of(pod(Map.of("cpu", "1"), Map.of()))).isEqualTo(KubeQos.BURSTABLE);
    assertThat(KubeQos.of(pod(Map.of(), Map.of("cpu", "1", "memory", "1Gi")))).isEqualTo(KubeQos.GUARANTEED);
    assertThat(KubeQos.of(pod(Map.of("cpu", "1000m", "memory", "1Gi"), Map.of("cpu", "1", "memory", "1Gi"))))
        .isEqualTo(KubeQos.GUARANTEED);
    // Batch resources are extended resources: a pod requesting only them is BestEffort.
    assertThat(KubeQos.of(pod(Map.of("kubernetes.io/batch-cpu", "1000"), Map.of("kubernetes.io/batch-cpu", "1000"))))
        .isEqualTo(KubeQos.BEST_EFFORT);
  }

  @Test
  void prefersTheClassInStatus() {
    Pod pod = pod(Map.of(), Map.of());
    pod.getStatus().setQosClass("Burstable");
    assertThat(KubeQos.of(pod)).isEqualTo(KubeQos.BURSTABLE);
  }

  private static Pod pod(Map<String, String> requests, Map<String, String> limits) {
    return new PodBuilder()
        .withNewSpec()
        .addNewContainer()
        .withName("main")
        .withNewResources()
        .withRequests(quantities(requests))
        .withLimits(quantities(limits))
        .endResources()
        .endContainer()
        .endSpec()
        .withNewStatus()
        .endStatus()
        .build();
  }

  private static Map<String, Quantity> quantities(Map<String, String> values) {
    java.util.HashMap<String, Quantity> result = new java.util.HashMap<>();
    values.forEach((name, value) -> result.put(name, new Quantity(value)));
    return result;
  }
}
