package io.koord4j.koordlet.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads and writes on fixture trees shaped like the kernel's v1 and v2 interface files. */
class CgroupFilesTest {
  private static final String POD = "kubepods/besteffort/pod1234";

  @Test
  void v1ReadsCpuacctAndMemoryWithoutInactiveFile(@TempDir Path root) throws Exception {
    write(root, "cpu/" + POD + "/cpu.cfs_quota_us", "-1\n");
    write(root, "cpu/" + POD + "/cpu.shares", "2\n");
    write(root, "cpuacct/" + POD + "/cpuacct.usage", "123456789\n");
    write(root, "memory/" + POD + "/memory.usage_in_bytes", "104857600\n");
    write(root, "memory/" + POD + "/memory.stat", "cache 1000\nrss 2000\ntotal_inactive_file 4857600\ntotal_rss 2000\n");
    write(root, "memory/" + POD + "/memory.limit_in_bytes", "9223372036854771712\n");
    CgroupFiles files = new CgroupFiles(CgroupLayout.detect(root, CgroupDriver.CGROUPFS, "kubepods"));

    assertThat(files.layout().version()).isEqualTo(CgroupVersion.V1);
    assertThat(files.cpuUsageNanos(POD)).isEqualTo(123_456_789L);
    assertThat(files.memoryWorkingSetBytes(POD)).isEqualTo(100_000_000L);
    assertThat(files.cpuQuotaUs(POD)).isEqualTo(-1);

    files.writeCpuQuotaUs(POD, 250_000);
    files.writeCpuShares(POD, 512);
    files.writeMemoryLimit(POD, 1 << 30);
    assertThat(read(root, "cpu/" + POD + "/cpu.cfs_quota_us")).isEqualTo("250000");
    assertThat(files.cpuQuotaUs(POD)).isEqualTo(250_000);
    assertThat(read(root, "cpu/" + POD + "/cpu.shares")).isEqualTo("512");
    assertThat(read(root, "memory/" + POD + "/memory.limit_in_bytes")).isEqualTo(Long.toString(1 << 30));
  }

  @Test
  void v2ReadsCpuStatAndMemoryCurrentAndWritesCpuMax(@TempDir Path root) throws Exception {
    write(root, "cgroup.controllers", "cpuset cpu io memory pids\n");
    write(root, POD + "/cpu.stat", "usage_usec 5000\nuser_usec 4000\nsystem_usec 1000\nnr_periods 0\n");
    write(root, POD + "/cpu.max", "max 100000\n");
    write(root, POD + "/memory.current", "52428800\n");
    write(root, POD + "/memory.stat", "anon 40000000\nfile 12428800\ninactive_file 2428800\nactive_file 10000000\n");
    CgroupFiles files = new CgroupFiles(CgroupLayout.detect(root, CgroupDriver.CGROUPFS, "kubepods"));

    assertThat(files.layout().version()).isEqualTo(CgroupVersion.V2);
    assertThat(files.cpuUsageNanos(POD)).isEqualTo(5_000_000L);
    assertThat(files.memoryWorkingSetBytes(POD)).isEqualTo(50_000_000L);
    assertThat(files.cpuQuotaUs(POD)).isEqualTo(-1);

    files.writeCpuQuotaUs(POD, 200_000);
    assertThat(read(root, POD + "/cpu.max")).isEqualTo("200000 100000");
    assertThat(files.cpuQuotaUs(POD)).isEqualTo(200_000);
    files.writeCpuQuotaUs(POD, -1);
    assertThat(read(root, POD + "/cpu.max")).isEqualTo("max 100000");

    files.writeCpuShares(POD, 1024);
    files.writeMemoryLimit(POD, -1);
    assertThat(read(root, POD + "/cpu.weight")).isEqualTo("39");
    assertThat(read(root, POD + "/memory.max")).isEqualTo("max");
  }

  @Test
  void sharesConvertToWeightAsTheKubeletDoes() {
    assertThat(CgroupFormats.sharesToWeight(2)).isEqualTo(1);
    assertThat(CgroupFormats.sharesToWeight(1024)).isEqualTo(39);
    assertThat(CgroupFormats.sharesToWeight(262_144)).isEqualTo(10_000);
  }

  @Test
  void malformedFilesNameTheFileAndTheLine(@TempDir Path root) throws Exception {
    write(root, "cgroup.controllers", "cpu\n");
    write(root, POD + "/cpu.stat", "usage_usec lots\n");
    CgroupFiles files = new CgroupFiles(CgroupLayout.detect(root, CgroupDriver.CGROUPFS, "kubepods"));

    assertThatThrownBy(() -> files.cpuUsageNanos(POD))
        .hasMessageContaining("cpu.stat")
        .hasMessageContaining("usage_usec lots");
    assertThatThrownBy(() -> CgroupFormats.cpuMaxQuota("100000"))
        .hasMessageContaining("cpu.max")
        .hasMessageContaining("quota period");
  }

  @Test
  void nothingIsWrittenOutsideTheCgroupRoot(@TempDir Path host) throws Exception {
    Path root = host.resolve("sys/fs/cgroup");
    write(root, "cgroup.controllers", "cpu memory\n");
    write(host, "etc/cpu.max", "untouched\n");
    CgroupFiles files = new CgroupFiles(CgroupLayout.detect(root, CgroupDriver.CGROUPFS, "kubepods"));

    assertThatThrownBy(() -> files.writeCpuQuotaUs(POD + "/../../../../../etc", 1_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is outside " + root);
    assertThatThrownBy(() -> files.writeCpuQuotaUs(host.resolve("etc").toString(), 1_000)).hasMessageContaining("is outside");
    assertThat(read(host, "etc/cpu.max")).isEqualTo("untouched");
  }

  static void write(Path root, String relative, String content) throws Exception {
    Path file = root.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  static String read(Path root, String relative) throws Exception {
    return Files.readString(root.resolve(relative)).trim();
  }
}
