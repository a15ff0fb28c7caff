package io.koord4j.koordlet.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.koordlet.cgroup.KubeQos;
import io.koord4j.koordlet.cgroup.RealCgroups;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelFilesTest {
  @Test
  void aHeldFileIsReadAfreshEachTime(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("cpuacct.usage");
    Files.writeString(file, "100\n");
    try (KernelFiles files = new KernelFiles()) {
      assertThat(files.read(file, CharSequence::toString)).isEqualTo("100\n");
      Files.writeString(file, "250\n");
      assertThat(files.read(file, CharSequence::toString)).isEqualTo("250\n");
      assertThat(files.openCount()).isEqualTo(1);
    }
  }

  @Test
  void contentLongerThanTheBufferIsReadWhole(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("stat");
    String content = "intr" + " 12345".repeat(10_000) + "\n";
    Files.writeString(file, content);
    try (KernelFiles files = new KernelFiles()) {
      assertThat(files.read(file, CharSequence::toString)).isEqualTo(content);
    }
  }

  @Test
  void aMissingFileSaysSo(@TempDir Path dir) {
    try (KernelFiles files = new KernelFiles()) {
      assertThatThrownBy(() -> files.read(dir.resolve("absent"), CharSequence::toString))
          .isInstanceOf(UncheckedIOException.class)
          .hasCauseInstanceOf(NoSuchFileException.class);
    }
  }

  @Test
  void aRemovedCgroupsHeldFileFailsAndIsDropped() throws Exception {
    try (RealCgroups cgroups = RealCgroups.v1(); KernelFiles files = new KernelFiles()) {
      String pod = cgroups.layout().podDir(KubeQos.BEST_EFFORT, UUID.randomUUID().toString());
      cgroups.mkdirs(pod);
      Path podDir = cgroups.layout().dir("cpuacct", pod);
      Path usage = podDir.resolve("cpuacct.usage");
      assertThat(files.read(usage, CharSequence::toString).trim()).isEqualTo("0");

      Files.delete(podDir);

      assertThatThrownBy(() -> files.read(usage, CharSequence::toString)).isInstanceOf(UncheckedIOException.class);
      assertThat(files.openCount()).isZero();
      assertThatThrownBy(() -> files.read(usage, CharSequence::toString)).hasCauseInstanceOf(NoSuchFileException.class);
    }
  }

  @Test
  void forgettingADirectoryClosesItsFiles(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("pod-a"));
    Files.createDirectories(dir.resolve("pod-b"));
    Files.writeString(dir.resolve("pod-a/memory.current"), "1");
    Files.writeString(dir.resolve("pod-b/memory.current"), "2");
    try (KernelFiles files = new KernelFiles()) {
      files.read(dir.resolve("pod-a/memory.current"), CharSequence::toString);
      files.read(dir.resolve("pod-b/memory.current"), CharSequence::toString);
      files.forgetUnder(dir.resolve("pod-a"));
      assertThat(files.openCount()).isEqualTo(1);
    }
  }
}
