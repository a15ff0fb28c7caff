package io.koord4j.manager.noderesource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.colocation.PriorityClass;
import io.koord4j.colocation.QosClass;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchResourceCalculatorTest {
  private static final long GIB = 1L << 30;
  private static final ColocationStrategy ON = new ColocationStrategy(
      true, 60, 65, CalculatePolicy.USAGE, CalculatePolicy.USAGE,
      ColocationStrategy.DEFAULT.degradeTime(), ColocationStrategy.DEFAULT.updateTimeThreshold(), 0.1);

  /** 100 cores, 100 GiB; system uses 4 cores and 6 GiB, 2 cores and 8 GiB reserved. */
  private static final BatchResourceCalculator.NodeFigures NODE = new BatchResourceCalculator.NodeFigures(
      new CpuMemory(100_000, 100 * GIB), new CpuMemory(2_000, 8 * GIB), new CpuMemory(4_000, 6 * GIB));

  @Test
  void batchIsCapacityLessMarginSystemAndHighPriorityUsage() {
    List<BatchResourceCalculator.PodInfo> pods = List.of(
        pod("default/web", PriorityClass.PROD, QosClass.LS, true, 20_000, 40 * GIB),
        pod("default/batch", PriorityClass.BATCH, QosClass.BE, true, 0, 0),
        pod("default/done", PriorityClass.PROD, QosClass.LS, false, 50_000, 50 * GIB),
        pod("default/new", PriorityClass.MID, QosClass.LS, true, 3_000, 2 * GIB));
    List<BatchResourceCalculator.PodUsage> usages = List.of(
        usage("default/web", "koord-prod", 10_000, 20 * GIB),
        usage("default/batch", "koord-batch", 30_000, 10 * GIB),
        usage("default/gone-prod", "koord-prod", 1_000, GIB),
        usage("default/gone-batch", "koord-batch", 5_000, 5 * GIB));

    BatchResourceCalculator.BatchResources batch = BatchResourceCalculator.calculate(ON, NODE, pods, usages);

    // cpu: 100000 - 40000 (margin 40%) - max(4000, 2000) - (10000 web + 3000 new request + 1000 gone) = 42000
    assertThat(batch.amount().cpuMilli()).isEqualTo(42_000);
    // memory: 100 - 35 (margin 35%) - max(6, 8) - (20 + 2 + 1) = 34 GiB
    assertThat(batch.amount().memoryBytes()).isEqualTo(34 * GIB);
    assertThat(batch.cpuMessage()).isEqualTo(
        "batch cpu 42000m = capacity 100000m - safety margin 40000m - max(system used, reserved) 4000m - high-priority used 14000m");
  }

  @Test
  void lseCountsItsCpuRequestAndPoliciesChangeWhatCounts() {
    List<BatchResourceCalculator.PodInfo> pods = List.of(pod("d/lse", PriorityClass.PROD, QosClass.LSE, true, 16_000, 32 * GIB));
    List<BatchResourceCalculator.PodUsage> usages = List.of(usage("d/lse", "koord-prod", 2_000, 10 * GIB));

    BatchResourceCalculator.BatchResources usage = BatchResourceCalculator.calculate(ON, NODE, pods, usages);
    assertThat(usage.amount()).isEqualTo(new CpuMemory(100_000 - 40_000 - 4_000 - 16_000, (100 - 35 - 8 - 10) * GIB));

    ColocationStrategy byRequest = new ColocationStrategy(true, 60, 65, CalculatePolicy.MAX_USAGE_REQUEST,
        CalculatePolicy.REQUEST, ON.degradeTime(), ON.updateTimeThreshold(), 0.1);
    BatchResourceCalculator.BatchResources request = BatchResourceCalculator.calculate(byRequest, NODE, pods, usages);
    assertThat(request.amount().cpuMilli()).isEqualTo(100_000 - 40_000 - 4_000 - 16_000);
    // memory by request leaves system used out: 100 - 35 - reserved 8 - request 32
    assertThat(request.amount().memoryBytes()).isEqualTo((100 - 35 - 8 - 32) * GIB);
    assertThat(request.memoryMessage()).contains("high-priority request " + 32 * GIB);
  }

  @Test
  void neverNegative() {
    List<BatchResourceCalculator.PodInfo> pods = List.of(pod("d/big", PriorityClass.PROD, QosClass.LS, true, 90_000, 90 * GIB));
    assertThat(BatchResourceCalculator.calculate(ON, NODE, pods, List.of()).amount()).isEqualTo(CpuMemory.ZERO);
  }

  @Test
  void onlyWhatThirdPartiesUseIsTakenOffNotTheRoomTheyReserve() {
    String yarn = """
        {"allocations":[
          {"name":"hadoop-yarn","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"4000","kubernetes.io/batch-memory":"8Gi"}},
          {"name":"hadoop-yarn-reserved","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"2000","kubernetes.io/batch-memory":"2Gi"}},
          {"name":"spark","priority":"koord-batch","resources":{"kubernetes.io/batch-cpu":"500"}},
          {"name":"other","priority":"koord-prod","resources":{"kubernetes.io/batch-cpu":"1000"}}]}
        """;
    assertThat(BatchResourceCalculator.thirdPartyUse("n", Map.of("node.koordinator.sh/thirdPartyAllocations", yarn)))
        .isEqualTo(new CpuMemory(4_500, 8 * GIB));
    assertThat(BatchResourceCalculator.thirdPartyUse("n", Map.of())).isEqualTo(CpuMemory.ZERO);
    assertThatThrownBy(() -> BatchResourceCalculator.thirdPartyUse("n", Map.of("node.koordinator.sh/thirdPartyAllocations", "[")))
        .hasMessageContaining("node n: annotation node.koordinator.sh/thirdPartyAllocations is not valid JSON");
  }

  private static BatchResourceCalculator.PodInfo pod(String key, PriorityClass priority, QosClass qos, boolean active, long cpu, long memory) {
    return new BatchResourceCalculator.PodInfo(key, priority, qos, active, new CpuMemory(cpu, memory));
  }

  private static BatchResourceCalculator.PodUsage usage(String key, String priority, long cpu, long memory) {
    return new BatchResourceCalculator.PodUsage(key, priority, new CpuMemory(cpu, memory));
  }
}
