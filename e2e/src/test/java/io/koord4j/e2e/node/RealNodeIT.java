package io.koord4j.e2e.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.LocalNamespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Pods from koord4j's own image run on the real node: processes, cgroups, logs and exec. */
class RealNodeIT {
  @RegisterExtension
  static final LocalNamespace NAMESPACE = new LocalNamespace("real-node-it");

  @BeforeAll
  static void start() {
    RealNode.upWithImages();
  }

  @Test
  void realNodeIsReadyBesideTheKwokNodesAndTainted() {
    Node node = NAMESPACE.client().nodes().withName(RealNode.NAME).get();
    assertThat(node.getStatus().getConditions())
        .anySatisfy(c -> assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("Ready=True"));
    assertThat(node.getMetadata().getLabels()).containsEntry(RealNode.LABEL, "true");
    assertThat(node.getSpec().getTaints())
        .anySatisfy(t -> assertThat(t.getKey() + "=" + t.getValue() + ":" + t.getEffect())
            .isEqualTo(RealNode.LABEL + "=true:NoSchedule"));
    assertThat(node.getStatus().getAddresses())
        .anySatisfy(a -> assertThat(a.getType() + "=" + a.getAddress()).isEqualTo("InternalIP=127.0.0.1"));
    assertThat(LocalCluster.script("kubectl", "get", "nodes"))
        .containsPattern(RealNode.NAME + "\\s+Ready");
  }

  @Test
  void podOfTheManagerImageRunsWithItsLimitsInTheKubeletCgroupsUntilDeleted() {
    Pod pod = runOnRealNode("guaranteed", Map.of("cpu", "250m", "memory", "128Mi"));
    assertThat(pod.getStatus().getQosClass()).isEqualTo("Guaranteed");

    assertThat(NAMESPACE.pods().withName("guaranteed").getLog())
        .contains("koord4j on the real node");
    assertThat(LocalCluster.script("kubectl", "exec", "-n", NAMESPACE.name(), "guaranteed", "--",
        "java", "-version")).contains("openjdk version \"17");

    String container = RealNode.podCgroup(pod) + "/" + RealNode.containerId(pod);
    if (RealNode.cgroupV2()) {
      assertThat(RealNode.read(RealNode.cgroup("cpu", container).resolve("cpu.max")))
          .isEqualTo("25000 100000");
      assertThat(RealNode.read(RealNode.cgroup("memory", container).resolve("memory.max")))
          .isEqualTo(String.valueOf(128L << 20));
    } else {
      assertThat(RealNode.read(RealNode.cgroup("cpu", container).resolve("cpu.cfs_quota_us")))
          .isEqualTo("25000");
      assertThat(RealNode.read(RealNode.cgroup("memory", container).resolve("memory.limit_in_bytes")))
          .isEqualTo(String.valueOf(128L << 20));
    }

    Path podCgroup = RealNode.cgroup("cpu", RealNode.podCgroup(pod));
    NAMESPACE.pods().withName("guaranteed").delete();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      assertThat(NAMESPACE.pods().withName("guaranteed").get()).isNull();
      assertThat(Files.exists(podCgroup)).as("pod cgroup %s removed", podCgroup).isFalse();
    });
  }

  @Test
  void bestEffortAndBurstablePodsLandInTheirQosCgroups() {
    Pod bestEffort = runOnRealNode("besteffort", Map.of());
    Pod burstable = NAMESPACE.pods().resource(
        withRequestOnly(RealNode.sleeperPod(NAMESPACE.name(), "burstable", Map.of()))).create();
    burstable = awaitRunning(burstable.getMetadata().getName());

    assertThat(bestEffort.getStatus().getQosClass()).isEqualTo("BestEffort");
    assertThat(RealNode.podCgroup(bestEffort)).startsWith("besteffort/pod");
    assertThat(RealNode.cgroup("cpu", RealNode.podCgroup(bestEffort))).isDirectory();
    assertThat(burstable.getStatus().getQosClass()).isEqualTo("Burstable");
    assertThat(RealNode.cgroup("memory", RealNode.podCgroup(burstable))).isDirectory();
  }

  private static Pod withRequestOnly(Pod pod) {
    pod.getSpec().getContainers().get(0).getResources()
        .setRequests(Map.of("cpu", new io.fabric8.kubernetes.api.model.Quantity("100m")));
    return pod;
  }

  private Pod runOnRealNode(String name, Map<String, String> resources) {
    NAMESPACE.pods().resource(RealNode.sleeperPod(NAMESPACE.name(), name, resources)).create();
    return awaitRunning(name);
  }

  private Pod awaitRunning(String name) {
    await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
      Pod pod = NAMESPACE.pods().withName(name).get();
      assertThat(pod.getSpec().getNodeName()).isEqualTo(RealNode.NAME);
      assertThat(pod.getStatus().getPhase()).as("phase of %s: %s", name, pod.getStatus())
          .isEqualTo("Running");
    });
    return NAMESPACE.pods().withName(name).get();
  }
}
