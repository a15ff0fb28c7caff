package io.koord4j.koordlet.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupLayoutTest {
  private static final String UID = "0f8a1c2e-3b4d-4e5f-9a6b-7c8d9e0f1a2b";

  @Test
  void cgroupfsNamesPodsUnderTheirQosDirectory() {
    CgroupLayout layout = new CgroupLayout(Path.of("/sys/fs/cgroup"), CgroupVersion.V1, CgroupDriver.CGROUPFS, "kubepods");

    assertThat(layout.podDir(KubeQos.GUARANTEED, UID)).isEqualTo("kubepods/pod" + UID);
    assertThat(layout.podDir(KubeQos.BURSTABLE, UID)).isEqualTo("kubepods/burstable/pod" + UID);
    assertThat(layout.podDir(KubeQos.BEST_EFFORT, UID)).isEqualTo("kubepods/besteffort/pod" + UID);
    assertThat(layout.containerDir("kubepods/besteffort/pod" + UID, "containerd://abc123"))
        .isEqualTo("kubepods/besteffort/pod" + UID + "/abc123");
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
    assertThat(layout.containerDir(pod, "containerd://abc")).isEqualTo(pod + "/cri-containerd-abc.scope");
    assertThat(layout.containerDir(pod, "cri-o://abc")).isEqualTo(pod + "/crio-abc.scope");
    assertThat(layout.containerDir(pod, "docker://abc")).isEqualTo(pod + "/docker-abc.scope");
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
