package io.koord4j.koordlet.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.koord4j.koordlet.metrics.PodRef;
import io.koord4j.koordlet.metrics.ProcFiles;
import io.koord4j.koordlet.metrics.Usage;
import io.koord4j.koordlet.metrics.UsageCollector;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real cgroups made by the test on this machine, with real CPU-burning processes moved into them.
 * Assertions compare what koordlet reads from the cgroups with what the kernel accounts to the
 * processes themselves (/proc/<pid>/stat), so they hold however busy the machine is.
 */
class RealCgroupTest {
  private static final String SERVICE_UID = "11111111-aaaa-4bbb-8ccc-000000000001";
  private static final String BATCH_UID = "11111111-aaaa-4bbb-8ccc-000000000002";

  @Test
  void v1CollectorMeasuresPodsAndTheBestEffortQuotaHoldsTheBatchPod() throws Exception {
    try (RealCgroups cgroups = RealCgroups.v1()) {
      CgroupLayout layout = cgroups.layout();
      String service = layout.podDir(KubeQos.BURSTABLE, SERVICE_UID);
      String batch = layout.podDir(KubeQos.BEST_EFFORT, BATCH_UID);
      cgroups.mkdirs(service);
      cgroups.mkdirs(batch);
      CgroupFiles files = new CgroupFiles(layout);
      // 0.2 of a core for all BestEffort pods, the way CPU suppression writes it
      files.writeCpuQuotaUs(layout.qosDir(KubeQos.BEST_EFFORT), 20_000);
      Process serviceBurner = cgroups.burnCpuIn(service, 24);
      Process batchBurner = cgroups.burnCpuIn(batch);

      UsageCollector collector =
          new UsageCollector(new ProcFiles(Path.of("/proc")), files, Clock.systemUTC(), System::nanoTime, 60, 60);
      List<PodRef> pods =
          List.of(
              new PodRef(SERVICE_UID, "default", "service", KubeQos.BURSTABLE),
              new PodRef(BATCH_UID, "default", "batch", KubeQos.BEST_EFFORT));
      long serviceStart = RealCgroups.processCpuNanos(serviceBurner);
      long batchStart = RealCgroups.processCpuNanos(batchBurner);
      long start = System.nanoTime();
      for (int i = 0; i < 7; i++) {
        collector.collect(pods);
        Thread.sleep(500);
      }
      collector.collect(pods);
      double seconds = (System.nanoTime() - start) / 1e9;
      double serviceTruth = (RealCgroups.processCpuNanos(serviceBurner) - serviceStart) / 1e9 / seconds;
      double batchTruth = (RealCgroups.processCpuNanos(batchBurner) - batchStart) / 1e9 / seconds;

      Map<String, Usage> measured = collector.podsAverage(Duration.ofMinutes(1));
      assertThat(measured.get(SERVICE_UID).cpuCores()).isCloseTo(serviceTruth, within(0.1));
      assertThat(measured.get(BATCH_UID).cpuCores()).isCloseTo(batchTruth, within(0.05));
      assertThat(measured.get(BATCH_UID).cpuCores()).isLessThanOrEqualTo(0.2 + 0.03);
      assertThat(collector.podsLatest().get(SERVICE_UID).memoryBytes()).isGreaterThan(20 << 20);
      assertThat(collector.nodeLatest()).get().extracting(Usage::cpuCores).asInstanceOf(
          org.assertj.core.api.InstanceOfAssertFactories.DOUBLE).isGreaterThan(batchTruth);
    }
  }

  @Test
  void v2ReadsTheCpuTimeOfARealCgroup() throws Exception {
    try (RealCgroups cgroups = RealCgroups.v2()) {
      CgroupLayout layout = cgroups.layout();
      assertThat(layout.version()).isEqualTo(CgroupVersion.V2);
      String pod = layout.podDir(KubeQos.BURSTABLE, SERVICE_UID);
      cgroups.mkdirs(pod);
      CgroupFiles files = new CgroupFiles(layout);
      Process burner = cgroups.burnCpuIn(pod);
      long cgroupStart = files.cpuUsageNanos(pod);
      long processStart = RealCgroups.processCpuNanos(burner);
      Thread.sleep(1_500);
      long cgroupUsed = files.cpuUsageNanos(pod) - cgroupStart;
      long processUsed = RealCgroups.processCpuNanos(burner) - processStart;

      assertThat(processUsed).isPositive();
      assertThat((double) cgroupUsed).isCloseTo(processUsed, within(50_000_000.0));
    }
  }
}
