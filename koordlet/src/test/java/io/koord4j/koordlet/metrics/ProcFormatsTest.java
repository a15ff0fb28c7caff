package io.koord4j.koordlet.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ProcFormatsTest {
  private static final String STAT_BEFORE =
      """
      cpu  1000 0 500 8000 100 0 0 0 0 0
      cpu0 500 0 250 4000 50 0 0 0 0 0
      cpu1 500 0 250 4000 50 0 0 0 0 0
      intr 12345
      ctxt 999
      """;
  private static final String STAT_AFTER =
      """
      cpu  1150 0 550 8100 100 0 0 0 0 0
      cpu0 600 0 280 4040 50 0 0 0 0 0
      cpu1 550 0 270 4060 50 0 0 0 0 0
      """;

  @Test
  void coresAreTheBusyShareOfAllTicksTimesTheCpus() {
    ProcFormats.CpuTimes before = ProcFormats.cpuTimes(STAT_BEFORE);
    ProcFormats.CpuTimes after = ProcFormats.cpuTimes(STAT_AFTER);

    assertThat(before.cpus()).isEqualTo(2);
    // 200 busy of 300 ticks on 2 CPUs
    assertThat(after.coresSince(before)).isCloseTo(4.0 / 3, within(1e-9));
  }

  @Test
  void memoryUsedExcludesWhatTheKernelCanReclaim() {
    ProcFormats.MemInfo info =
        ProcFormats.memInfo("MemTotal:       16384000 kB\nMemFree:  1000 kB\nMemAvailable:   12288000 kB\nCached: 5 kB\n");
    assertThat(info.totalBytes()).isEqualTo(16_384_000L * 1024);
    assertThat(info.usedBytes()).isEqualTo(4_096_000L * 1024);
  }

  @Test
  void truncatedFilesSayWhatIsMissing() {
    assertThatThrownBy(() -> ProcFormats.cpuTimes("intr 1\n")).hasMessageContaining("\"cpu\" line");
    assertThatThrownBy(() -> ProcFormats.memInfo("MemTotal: 1 kB\n")).hasMessageContaining("MemAvailable");
  }
}
