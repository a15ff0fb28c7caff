package io.koord4j.koordlet.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CgroupNamesTest {
  private static final String ID = "4f9c2a7d1e3b5c8a0d6f2e4b9a1c7d3e5f8b0a2c4e6d9f1b3a5c7e9d0f2a4b6c";

  @Test
  void containerIdsOfTheKnownRuntimesAreRead() {
    assertThat(CgroupNames.containerId("containerd://" + ID)).isEqualTo(new CgroupNames.ContainerId("containerd", ID));
    assertThat(CgroupNames.containerId("cri-o://" + ID)).isEqualTo(new CgroupNames.ContainerId("cri-o", ID));
    assertThat(CgroupNames.containerId("docker://4f9c2a7d1e3b")).isEqualTo(new CgroupNames.ContainerId("docker", "4f9c2a7d1e3b"));
  }

  @Test
  void containerIdsThatCouldStepOutOfTheirDirectoryAreRefused() {
    for (String bad : new String[] {
        "containerd://../../../sys/fs/cgroup/foo", "docker://a/b", "", "containerd://", "://" + ID, ID,
        "containerd://" + ID + "0", "containerd://" + ID.substring(0, 11), "containerd://" + ID.toUpperCase(),
        "containerd://" + ID + "\0", "Containerd://" + ID, "container d://" + ID}) {
      assertThatThrownBy(() -> CgroupNames.containerId(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("containerID must be <runtime>://<12 to 64 hex digits>, not ");
    }
    assertThatThrownBy(() -> CgroupNames.containerId(null)).hasMessageEndingWith("not nothing");
  }

  @Test
  void aRefusedValueIsQuotedEscapedAndCutShort() {
    assertThatThrownBy(() -> CgroupNames.containerId("containerd://a\0b\nc"))
        .hasMessageEndingWith("not \"containerd://a\\u0000b\\u000ac\"");
    String huge = "containerd://" + "../".repeat(100_000);
    assertThatThrownBy(() -> CgroupNames.containerId(huge))
        .hasMessageContaining("not \"containerd://../../")
        .hasMessageEndingWith("… (" + huge.length() + " characters)")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200));
  }

  @Test
  void podUidsMustBeUuids() {
    assertThat(CgroupNames.podUid("0f8a1c2e-3b4d-4e5f-9a6b-7c8d9e0f1a2b")).isEqualTo("0f8a1c2e-3b4d-4e5f-9a6b-7c8d9e0f1a2b");
    for (String bad : new String[] {"", "../x", "0f8a1c2e-3b4d-4e5f-9a6b-7c8d9e0f1a2b/..", "1-1-1-1-1", ID, null}) {
      assertThatThrownBy(() -> CgroupNames.podUid(bad)).as(bad).hasMessageStartingWith("metadata.uid must be a UUID, not ");
    }
  }
}
