package io.koord4j.colocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SystemPodsTest {
  @Test
  void anOrdinaryBatchPodIsNotProtected() {
    assertThat(SystemPods.isEvictionProtected(batchPod().build())).isFalse();
    assertThat(SystemPods.isEvictionProtected(batchPod().editSpec().withPriority(SystemPods.SYSTEM_CRITICAL_PRIORITY - 1)
        .withPriorityClassName("koord-batch").endSpec().build())).isFalse();
  }

  @Test
  void podsInKubeSystemAreProtected() {
    assertThat(SystemPods.isEvictionProtected(batchPod().editMetadata().withNamespace("kube-system").endMetadata().build()))
        .isTrue();
  }

  @Test
  void podsOfSystemCriticalPriorityAreProtected() {
    assertThat(SystemPods.isEvictionProtected(batchPod().editSpec().withPriority(2_000_000_000).endSpec().build())).isTrue();
    assertThat(SystemPods.isEvictionProtected(batchPod().editSpec().withPriority(2_000_001_000).endSpec().build())).isTrue();
  }

  @Test
  void podsOfTheSystemCriticalPriorityClassesAreProtectedBeforeTheirPriorityIsResolved() {
    assertThat(SystemPods.isEvictionProtected(batchPod().editSpec().withPriorityClassName("system-cluster-critical").endSpec().build()))
        .isTrue();
    assertThat(SystemPods.isEvictionProtected(batchPod().editSpec().withPriorityClassName("system-node-critical").endSpec().build()))
        .isTrue();
  }

  @Test
  void mirrorPodsOfStaticPodsAreProtected() {
    Pod mirror = batchPod().editMetadata().withAnnotations(Map.of("kubernetes.io/config.mirror", "3f1c9a")).endMetadata().build();
    assertThat(SystemPods.isEvictionProtected(mirror)).isTrue();
  }

  @Test
  void daemonSetPodsAreProtected() {
    Pod daemon = batchPod().editMetadata().addNewOwnerReference()
        .withApiVersion("apps/v1").withKind("DaemonSet").withName("node-agent").withUid("u").endOwnerReference().endMetadata().build();
    Pod replica = batchPod().editMetadata().addNewOwnerReference()
        .withApiVersion("apps/v1").withKind("ReplicaSet").withName("web").withUid("u").endOwnerReference().endMetadata().build();

    assertThat(SystemPods.isDaemonSetPod(daemon)).isTrue();
    assertThat(SystemPods.isEvictionProtected(daemon)).isTrue();
    assertThat(SystemPods.isEvictionProtected(replica)).isFalse();
  }

  /** A tenant's pod labelled BE, as anyone may label their pod. */
  private static PodBuilder batchPod() {
    return new PodBuilder()
        .withNewMetadata().withName("p").withNamespace("tenant").withLabels(Map.of("koordinator.sh/qosClass", "BE")).endMetadata()
        .withNewSpec().addNewContainer().withName("main").endContainer().endSpec();
  }
}
