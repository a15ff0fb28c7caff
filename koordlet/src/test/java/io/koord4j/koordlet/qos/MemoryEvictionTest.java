package io.koord4j.koordlet.qos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryEvictionTest {
  private static final long GIB = 1L << 30;

  @Test
  void belowTheThresholdNothingIsEvicted() {
    MemoryEviction.Decision decision =
        MemoryEviction.decide(100 * GIB, 69 * GIB, 70, null, List.of(candidate("a", null, GIB)));
    assertThat(decision.evicts()).isFalse();
    assertThat(decision.usagePercent()).isEqualTo(69);
  }

  @Test
  void evictsLowestPriorityThenLargestUntilBackUnderTheLowerMark() {
    // 75 % used, lower mark 68 %: 7 GiB must go
    List<MemoryEviction.Candidate> pods =
        List.of(
            candidate("mid-small", 5500, GIB),
            candidate("low-big", 5000, 4 * GIB),
            candidate("mid-big", 5500, 5 * GIB),
            candidate("high", 5900, 8 * GIB));
    MemoryEviction.Decision decision = MemoryEviction.decide(100 * GIB, 75 * GIB, 70, null, pods);

    assertThat(decision.lowerPercent()).isEqualTo(68);
    assertThat(decision.needReleaseBytes()).isEqualTo(7 * GIB);
    assertThat(decision.victims()).extracting(c -> c.pod().getMetadata().getName()).containsExactly("low-big", "mid-big");
  }

  @Test
  void anExplicitLowerMarkReleasesMore() {
    MemoryEviction.Decision decision =
        MemoryEviction.decide(100 * GIB, 75 * GIB, 70, 50L, List.of(candidate("a", null, 10 * GIB), candidate("b", null, 20 * GIB)));
    assertThat(decision.needReleaseBytes()).isEqualTo(25 * GIB);
    assertThat(decision.victims()).extracting(c -> c.pod().getMetadata().getName()).containsExactly("b", "a");
  }

  @Test
  void systemPodsAreNeverVictimsButAnOrdinaryBatchPodStillIs() {
    Map<String, Pod> protectedPods = Map.of(
        "in kube-system", pod("dns").editMetadata().withNamespace("kube-system").endMetadata().build(),
        "priority 2000000000", pod("critical").editSpec().withPriority(2_000_000_000).endSpec().build(),
        "system-cluster-critical", pod("cluster").editSpec().withPriorityClassName("system-cluster-critical").endSpec().build(),
        "system-node-critical", pod("node").editSpec().withPriorityClassName("system-node-critical").endSpec().build(),
        "a mirror pod", pod("static").editMetadata().addToAnnotations("kubernetes.io/config.mirror", "3f1c").endMetadata().build(),
        "DaemonSet-owned", pod("agent").editMetadata().addNewOwnerReference()
            .withApiVersion("apps/v1").withKind("DaemonSet").withName("agent").withUid("u").endOwnerReference().endMetadata().build());
    protectedPods.forEach((why, pod) -> {
      // 75 % used, 7 GiB to release: the protected pod alone would cover it, yet only the batch pod goes
      MemoryEviction.Decision decision = MemoryEviction.decide(
          100 * GIB, 75 * GIB, 70, null, List.of(new MemoryEviction.Candidate(pod, 50 * GIB), candidate("batch", 0, GIB)));

      assertThat(decision.victims()).as(why).extracting(c -> c.pod().getMetadata().getName()).containsExactly("batch");
    });
  }

  @Test
  void withOnlySystemPodsAboveTheThresholdNothingIsEvicted() {
    Pod daemon = pod("agent").editMetadata().withNamespace("kube-system").endMetadata().build();
    MemoryEviction.Decision decision =
        MemoryEviction.decide(100 * GIB, 90 * GIB, 70, null, List.of(new MemoryEviction.Candidate(daemon, 50 * GIB)));

    assertThat(decision.usagePercent()).isEqualTo(90);
    assertThat(decision.evicts()).isFalse();
  }

  @Test
  void inconsistentThresholdsAreRejectedByName() {
    assertThatThrownBy(() -> MemoryEviction.decide(GIB, GIB, 70, 80L, List.of()))
        .hasMessageContaining("memoryEvictLowerPercent (80)")
        .hasMessageContaining("memoryEvictThresholdPercent (70)");
    assertThatThrownBy(() -> MemoryEviction.decide(GIB, GIB, 170, null, List.of()))
        .hasMessageContaining("memoryEvictThresholdPercent must be within 0..100");
  }

  static MemoryEviction.Candidate candidate(String name, Integer priority, long memory) {
    return new MemoryEviction.Candidate(pod(name).editSpec().withPriority(priority).endSpec().build(), memory);
  }

  /** A tenant's pod labelled BE, as anyone may label their pod. */
  private static PodBuilder pod(String name) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace("d").withLabels(Map.of("koordinator.sh/qosClass", "BE")).endMetadata()
        .withNewSpec().endSpec();
  }
}
