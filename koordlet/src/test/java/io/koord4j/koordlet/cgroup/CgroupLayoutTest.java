package io.koord4j.koordlet.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupLayoutTest {
  private static final String UID = "0f8a1c2e-3b4d-4e5f-9a6b-7c8d9e0f1a2b";
  private static final String ID = "4f9c2a7d1e3b5c8a0d6f2e4b9a1c7d3e5f8b0a2c4e6d9f1b3a5c7e9d0f2a4b6c";

  @Test
  void cgroupfsNamesPodsUnderTheirQosDirectory() {
    CgroupLayout layout = new CgroupLayout(Path.of("/sys/fs/cgroup"), CgroupVersion.V1, CgroupDriver.CGROUPFS, "kubepods");

    assertThat(layout.podDir(KubeQos.GUARANTEED, UID)).isEqualTo("kubepods/pod" + UID);
    assertThat(layout.podDir(KubeQos.BURSTABLE, UID)).isEqualTo("kubepods/burstable/pod" + UID);
    assertThat(layout.podDir(KubeQos.BEST_EFFORT, UID)).isEqualTo("kubepods/besteffort/pod" + UID);
    assertThat(layout.containerDir("kubepods/besteffort/pod" + UID, "containerd://" + ID))
        .isEqualTo("kubepods/besteffort/pod" + UID + "/" + ID);
  }

  @Test
  void systemdNamesPodsAsSlicesWithUnderscoredUids() {
    CgroupLayout layout = new CgroupLayout(Path.of("/sys/fs/cgroup"), CgroupVersion.V2, CgroupDriver.SYSTEMD, "kubepods.slice");
    String underscored = UID.replace('-', '_');

    assertThat(layout.qosDir(KubeQos.BEST_EFFORT)).isEqualTo("kubepods.slice/kubepods-besteffort.slice");
    assertThat(layout.podDir(KubeQos.GUARANTEED, UID)).isEqualTo("kubepods.slice/kubepods-pod" + underscored + ".slice");
    assertThat(layout.podDir(KubeQos.BURSTABLE, UID))
        .isEqualTo("kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + underscored + ".slice");
    String pod = layout.podDir(KubeQos.BEST_EFFORT, UID);
    assertThat(layout.containerDir(pod, "containerd://" + ID)).isEqualTo(pod + "/cri-containerd-" + ID + ".scope");
    assertThat(layout.containerDir(pod, "cri-o://" + ID)).isEqualTo(pod + "/crio-" + ID + ".scope");
    assertThat(layout.containerDir(pod, "docker://" + ID)).isEqualTo(pod + "/docker-" + ID + ".scope");
  }

  @Test
  void containerIdsThatAreNotRuntimeAndHexAreRefusedUnderEitherLayout() {
    for (CgroupLayout layout : List.of(
        new CgroupLayout(Path.of("/sys/fs/cgroup"), CgroupVersion.V1, CgroupDriver.CGROUPFS, "kubepods"),
        new CgroupLayout(Path.of("/sys/fs/cgroup"), CgroupVersion.V2, CgroupDriver.SYSTEMD, "kubepods.slice"))) {
      String pod = layout.podDir(KubeQos.BEST_EFFORT, UID);
      for (String bad : List.of("containerd://../../../sys/fs/cgroup/foo", "docker://a/b", "", ID, "containerd://" + ID + "/..")) {
        assertThatThrownBy(() -> layout.containerDir(pod, bad))
            .as(bad)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("containerID must be <runtime>://<12 to 64 hex digits>");
      }
    }
  }

  @Test
  void podUidsThatAreNotUuidsAreRefusedUnderEitherDriver() {
    for (CgroupDriver driver : CgroupDriver.values()) {
      CgroupLayout layout =
          new CgroupLayout(Path.of("/sys/fs/cgroup"), CgroupVersion.V2, driver, CgroupLayout.defaultKubepods(driver));
      for (String bad : List.of("../../../etc", UID + "/..", "", UID.toUpperCase(Locale.ROOT) + "x")) {
        assertThatThrownBy(() -> layout.podDir(KubeQos.BURSTABLE, bad))
            .as(bad)
            .hasMessageStartingWith("metadata.uid must be a UUID");
      }
    }
  }

  @Test
  void theKubepodsCgroupMustBeARelativePathWithoutDotDot() {
    for (String bad : List.of("/kubepods", "kubepods/../..", "", "a//kubepods", "kubepods/.")) {
      assertThatThrownBy(() -> new CgroupLayout(Path.of("/sys/fs/cgroup"), CgroupVersion.V1, CgroupDriver.CGROUPFS, bad))
          .as(bad)
          .hasMessageStartingWith("--kubepods-cgroup must be a path under the cgroup root");
    }
    assertThat(new CgroupLayout(Path.of("/sys/fs/cgroup"), CgroupVersion.V2, CgroupDriver.SYSTEMD, "kubelet.slice/kubepods.slice")
        .qosDir(KubeQos.BURSTABLE)).isEqualTo("kubelet.slice/kubepods.slice/kubepods-burstable.slice");
  }

  @Test
  void aDirectoryThatWouldLeaveTheHierarchyIsRefused(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("memory"));
    CgroupLayout layout = CgroupLayout.detect(root, CgroupDriver.CGROUPFS, "kubepods");

    assertThatThrownBy(() -> layout.dir("memory", "kubepods/../../cpu")).hasMessageContaining("is outside " + root.resolve("memory"));
    assertThatThrownBy(() -> layout.dir("memory", "/etc")).hasMessageContaining("is outside");
    assertThat(layout.dir("memory", "kubepods/./besteffort")).isEqualTo(root.resolve("memory/kubepods/besteffort"));
  }

  @Test
  void detectsTheVersionFromTheMount(@TempDir Path v1, @TempDir Path v2) throws Exception {
    Files.createDirectories(v1.resolve("cpu"));
    Files.writeString(v2.resolve("cgroup.controllers"), "cpu memory\n");

    assertThat(CgroupLayout.detect(v1, CgroupDriver.CGROUPFS, "kubepods").version()).isEqualTo(CgroupVersion.V1);
    assertThat(CgroupLayout.detect(v2, CgroupDriver.CGROUPFS, "kubepods").version()).isEqualTo(CgroupVersion.V2);
  }

  @Test
  void v1FindsCpuacctInTheJointCpuHierarchy(@TempDir Path root) throws Exception {
    Files.createDirectories(root.resolve("cpu,cpuacct"));
    Files.createDirectories(root.resolve("memory"));
    CgroupLayout layout = CgroupLayout.detect(root, CgroupDriver.CGROUPFS, "kubepods");

    assertThat(layout.dir("cpuacct", "kubepods")).isEqualTo(root.resolve("cpu,cpuacct/kubepods"));
    assertThat(layout.dir("memory", "kubepods")).isEqualTo(root.resolve("memory/kubepods"));
  }

  @Test
  void badDriverNamesTheAllowedValues() {
    assertThatThrownBy(() -> CgroupDriver.parse("cgroupv2"))
        .hasMessageContaining("cgroupfs or systemd")
        .hasMessageContaining("cgroupv2");
  }
}
