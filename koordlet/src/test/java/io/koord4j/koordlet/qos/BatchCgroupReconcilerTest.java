package io.koord4j.koordlet.qos;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.koord4j.api.slo.NodeSLO;
import io.koord4j.koordlet.cgroup.CgroupDriver;
import io.koord4j.koordlet.cgroup.CgroupFiles;
import io.koord4j.koordlet.cgroup.CgroupLayout;
import io.koord4j.koordlet.cgroup.KubeQos;
import io.koord4j.koordlet.states.NodeView;
import io.koord4j.testing.TestPods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batch cgroup values written on fixture trees shaped like the kubelet's v1 and v2 layouts. */
class BatchCgroupReconcilerTest {
  private static final String GOOD_UID = "33333333-aaaa-4bbb-8ccc-000000000001";
  private static final String EVIL_UID = "33333333-aaaa-4bbb-8ccc-000000000002";
  private static final String ID = "4f9c2a7d1e3b5c8a0d6f2e4b9a1c7d3e5f8b0a2c4e6d9f1b3a5c7e9d0f2a4b6c";

  @Test
  void aBatchPodAndItsContainerTakeTheirValuesOnCgroupV1(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("cpu"));
    CgroupLayout layout = CgroupLayout.detect(root, CgroupDriver.CGROUPFS, "kubepods");
    String container = containerCgroup(root, layout, GOOD_UID, "containerd://" + ID);

    new BatchCgroupReconciler(new Pods(List.of(batchPod("good", GOOD_UID, "containerd://" + ID))), new CgroupFiles(layout)).run();

    assertThat(container).isEqualTo("kubepods/besteffort/pod" + GOOD_UID + "/" + ID);
    assertThat(Files.readString(root.resolve("cpu/" + container + "/cpu.cfs_quota_us"))).isEqualTo("50000");
    assertThat(Files.readString(root.resolve("memory/" + container + "/memory.limit_in_bytes"))).isEqualTo(Long.toString(256L << 20));
  }

  @Test
  void aBatchPodAndItsContainerTakeTheirValuesOnCgroupV2WithSystemd(@TempDir Path root) throws Exception {
    Files.writeString(root.resolve("cgroup.controllers"), "cpu memory\n");
    CgroupLayout layout = CgroupLayout.detect(root, CgroupDriver.SYSTEMD, "kubepods.slice");
    String container = containerCgroup(root, layout, GOOD_UID, "cri-o://" + ID);

    new BatchCgroupReconciler(new Pods(List.of(batchPod("good", GOOD_UID, "cri-o://" + ID))), new CgroupFiles(layout)).run();

    assertThat(container).endsWith("/kubepods-besteffort-pod" + GOOD_UID.replace('-', '_') + ".slice/crio-" + ID + ".scope");
    assertThat(Files.readString(root.resolve(container + "/cpu.max"))).isEqualTo("50000 100000");
    assertThat(Files.readString(root.resolve(container + "/memory.max"))).isEqualTo(Long.toString(256L << 20));
  }

  @Test
  void aPodWhoseContainerIdPointsOutOfItsCgroupIsLeftAloneAndTheOthersAreNot(@TempDir Path host) throws Exception {
    Path root = host.resolve("sys/fs/cgroup");
    Files.createDirectories(root.resolve("cpu"));
    CgroupLayout layout = CgroupLayout.detect(root, CgroupDriver.CGROUPFS, "kubepods");
    String good = containerCgroup(root, layout, GOOD_UID, "containerd://" + ID);
    String evilPod = layout.podDir(KubeQos.BEST_EFFORT, EVIL_UID);
    Files.createDirectories(root.resolve("cpu/" + evilPod));
    Files.createDirectories(root.resolve("memory/" + evilPod));
    Pod evil = batchPod("evil", EVIL_UID, "containerd://../../../../../../../../etc");

    new BatchCgroupReconciler(new Pods(List.of(evil, batchPod("good", GOOD_UID, "containerd://" + ID))), new CgroupFiles(layout)).run();

    assertThat(filesUnder(host)).as("every file written").allMatch(file -> file.startsWith(root));
    assertThat(filesUnder(root.resolve("cpu/" + evilPod))).as("the pod with the bad containerID is skipped whole").isEmpty();
    assertThat(root.resolve("cpu/" + good + "/cpu.cfs_quota_us")).hasContent("50000");
  }

  /** Makes the pod's and the container's cgroup directories and returns the container's. */
  private static String containerCgroup(Path root, CgroupLayout layout, String uid, String containerId) throws Exception {
    String dir = layout.containerDir(layout.podDir(KubeQos.BEST_EFFORT, uid), containerId);
    for (String controller : List.of("cpu", "memory")) {
      Files.createDirectories(layout.dir(controller, dir));
    }
    return dir;
  }

  private static List<Path> filesUnder(Path dir) throws Exception {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).toList();
    }
  }

  private static Pod batchPod(String name, String uid, String containerId) {
    Map<String, String> batch = Map.of("kubernetes.io/batch-cpu", "500", "kubernetes.io/batch-memory", "256Mi");
    Pod pod = TestPods.pod(name, null, batch, batch);
    pod.getMetadata().setUid(uid);
    pod.getMetadata().setLabels(Map.of("koordinator.sh/qosClass", "BE"));
    pod.setStatus(new PodStatusBuilder()
        .addNewContainerStatus().withName("main").withContainerID(containerId).endContainerStatus().build());
    return pod;
  }

  private record Pods(List<Pod> pods) implements NodeView {
    @Override
    public Optional<Node> node() {
      return Optional.empty();
    }

    @Override
    public Optional<NodeSLO> nodeSlo() {
      return Optional.empty();
    }
  }
}
