package io.koord4j.koordlet.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.testing.TestPods;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubeQosTest {
  @Test
  void mapsTheKubernetesClassToTheKubeletDirectory() {
    assertThat(KubeQos.of(TestPods.pod("p", null, Map.of(), Map.of()))).isEqualTo(KubeQos.BEST_EFFORT);
    assertThat(KubeQos.of(TestPods.pod("p", null, Map.of("cpu", "1"), Map.of()))).isEqualTo(KubeQos.BURSTABLE);
    assertThat(KubeQos.of(TestPods.pod("p", null, Map.of(), Map.of("cpu", "1", "memory", "1Gi"))))
        .isEqualTo(KubeQos.GUARANTEED);
    // Batch resources are extended resources: a pod asking only for them is BestEffort.
    assertThat(KubeQos.of(TestPods.pod("p", null, Map.of("kubernetes.io/batch-cpu", "1000"), Map.of())))
        .isEqualTo(KubeQos.BEST_EFFORT);
  }

  @Test
  void prefersTheClassInStatus() {
    Pod pod = TestPods.pod("p", null, Map.of(), Map.of());
    pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withQosClass("Burstable").build());
    assertThat(KubeQos.of(pod)).isEqualTo(KubeQos.BURSTABLE);
  }
}
