package io.koord4j.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.device.GpuFragmentation.FreeCapacity;
import java.util.List;
import org.junit.jupiter.api.Test;

class GpuFragmentationTest {
  private static final long GIB = 1L << 30;
  private static final TaskClass HALF_GPU = new TaskClass(1000, GIB, 1, 50, 1);
  private static final TaskClass TWO_GPUS = new TaskClass(1000, GIB, 2, 100, 1);

  private static FreeCapacity free(int... gpuPercent) {
    return new FreeCapacity(gpuPercent, 8000, 64 * GIB);
  }

  @Test
  void gpusTooFullForTheTaskAreFragmentsWhenTheTaskFitsElsewhereOnTheNode() {
    // 30 % left on one GPU cannot hold half a GPU; the idle GPU can.
    assertThat(GpuFragmentation.of(free(30, 100), List.of(HALF_GPU))).isEqualTo(30);
    assertThat(GpuFragmentation.of(free(50, 100), List.of(HALF_GPU))).isZero();
  }

  @Test
  void allFreeGpusAreFragmentsWhenTheTaskCannotRunOnTheNode() {
    assertThat(GpuFragmentation.of(free(100, 60), List.of(TWO_GPUS))).isEqualTo(160);
    FreeCapacity noCpu = new FreeCapacity(new int[] {100, 100}, 500, 64 * GIB);
    assertThat(GpuFragmentation.of(noCpu, List.of(TWO_GPUS))).isEqualTo(200);
    TaskClass cpuOnly = new TaskClass(1000, GIB, 0, 0, 1);
    assertThat(GpuFragmentation.of(free(100, 40), List.of(cpuOnly))).isEqualTo(140);
  }

  @Test
  void theWorkloadWeighsEachClass() {
    List<TaskClass> workload =
        List.of(new TaskClass(1000, GIB, 1, 50, 0.75), new TaskClass(1000, GIB, 2, 100, 0.25));

    // Half-GPU tasks lose the 30 %; two-GPU tasks cannot run at all (one idle GPU).
    assertThat(GpuFragmentation.of(free(30, 100), workload)).isEqualTo(0.75 * 30 + 0.25 * 130);
  }

  @Test
  void freeCapacityReadsTheFullerOfCoreAndMemoryOfEachHealthyGpu() {
    NodeGpuInventory h100 = GpuNodes.h100("n1");
    NodeGpuUsage usage =
        NodeGpuUsage.NONE.reserve(GpuAllocator.allocate(h100, NodeGpuUsage.NONE, GpuRequest.share(20, 40))
            .allocation().orElseThrow());

    FreeCapacity free = FreeCapacity.of(h100, usage, 1000, GIB);

    assertThat(free.gpuPercent()).containsExactlyInAnyOrder(60, 100, 100, 100, 100, 100, 100, 100);
    assertThat(free.totalGpuPercent()).isEqualTo(760);
  }
}
