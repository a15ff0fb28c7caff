package io.koord4j.koordlet.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.koordlet.cgroup.CgroupDriver;
import io.koord4j.koordlet.cgroup.CgroupFiles;
import io.koord4j.koordlet.cgroup.CgroupLayout;
import io.koord4j.koordlet.cgroup.KubeQos;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UsageCollectorTest {
  private static final String UID = "44444444-aaaa-4bbb-8ccc-000000000001";

  @Test
  void aPodWhoseUidCannotNameACgroupIsSkippedAndTheOthersAreMeasured(@TempDir Path root) throws Exception {
    Files.writeString(root.resolve("cgroup.controllers"), "cpu memory\n");
    CgroupLayout layout = CgroupLayout.detect(root, CgroupDriver.CGROUPFS, "kubepods");
    Path pod = Files.createDirectories(root.resolve(layout.podDir(KubeQos.BEST_EFFORT, UID)));
    Files.writeString(pod.resolve("cpu.stat"), "usage_usec 5000\n");
    Files.writeString(pod.resolve("memory.current"), "1048576\n");
    Files.writeString(pod.resolve("memory.stat"), "inactive_file 0\n");
    AtomicLong nanos = new AtomicLong();
    UsageCollector collector = new UsageCollector(
        new ProcFiles(Path.of("/proc")), new CgroupFiles(layout), Clock.systemUTC(), () -> nanos.addAndGet(1_000_000_000), 4, 4);
    List<PodRef> pods = List.of(
        new PodRef("../../../../etc", "tenant", "evil", KubeQos.BEST_EFFORT),
        new PodRef(UID, "tenant", "good", KubeQos.BEST_EFFORT));

    collector.collect(pods);
    collector.collect(pods);

    assertThat(collector.podsLatest()).containsOnlyKeys(UID);
    assertThat(collector.podsLatest().get(UID).memoryBytes()).isEqualTo(1_048_576.0);
  }
}
