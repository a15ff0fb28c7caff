package io.koord4j.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.testing.TestPods;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodClassesTest {
  @Test
  void priorityComesFromTheBandOfSpecPriority() {
    assertThat(PriorityClass.of(pod(9500, Map.of(), Map.of()))).isEqualTo(PriorityClass.PROD);
    assertThat(PriorityClass.of(pod(7000, Map.of(), Map.of()))).isEqualTo(PriorityClass.MID);
    assertThat(PriorityClass.of(pod(5999, Map.of(), Map.of()))).isEqualTo(PriorityClass.BATCH);
    assertThat(PriorityClass.of(pod(3000, Map.of(), Map.of()))).isEqualTo(PriorityClass.FREE);
    assertThat(PriorityClass.BATCH.value()).isEqualTo("koord-batch");
    assertThat(PriorityClass.fromValue("koord-free")).isEqualTo(PriorityClass.FREE);
  }

  @Test
  void withoutABandPriorityFollowsQos() {
    assertThat(PriorityClass.of(pod(null, Map.of(), Map.of()))).isEqualTo(PriorityClass.BATCH);
    assertThat(PriorityClass.of(pod(0, Map.of("cpu", "1"), Map.of()))).isEqualTo(PriorityClass.PROD);
  }

  @Test
  void qosComesFromTheLabelElseFromTheKubernetesClass() {
    Pod labelled = pod(null, Map.of("cpu", "1"), Map.of("cpu", "1", "memory", "1Gi"));
    labelled.getMetadata().setLabels(Map.of("koordinator.sh/qosClass", "LSE"));
    assertThat(QosClass.of(labelled)).isEqualTo(QosClass.LSE);
    assertThat(QosClass.of(pod(null, Map.of(), Map.of("cpu", "1", "memory", "1Gi")))).isEqualTo(QosClass.LSR);
    assertThat(QosClass.of(pod(null, Map.of("memory", "1Gi"), Map.of()))).isEqualTo(QosClass.LS);
    assertThat(QosClass.of(pod(null, Map.of("kubernetes.io/batch-cpu", "500"), Map.of()))).isEqualTo(QosClass.BE);
  }

  private static Pod pod(Integer priority, Map<String, String> requests, Map<String, String> limits) {
    return TestPods.pod("p", priority, requests, limits);
  }
}
