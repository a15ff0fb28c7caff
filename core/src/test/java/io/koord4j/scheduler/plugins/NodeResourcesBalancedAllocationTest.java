package io.koord4j.scheduler.plugins;

import static io.koord4j.scheduler.Fixtures.nodeInfo;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.NodeInfo;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeResourcesBalancedAllocationTest {

  private static final long GI = 1024L * 1024 * 1024;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "'like shares of CPU and memory balance perfectly', 2, 5Gi, 0, 0, 100",
    "'CPU 3/4 and memory 1/2 used are a deviation of 1/8', 3, 5Gi, 0, 0, 87",
    "'what is already requested on the node counts', 1, 1Gi, 2000, 4, 87",
    "'a share above the allocatable counts as all of it', 6, 5Gi, 0, 0, 75",
    "'CPU all used and memory untouched is the worst balance', 4, 0, 0, 0, 50",
  })
  void prefersNodesWhereCpuAndMemoryAreUsedAlike(
      String scenario, String cpu, String memory, long requestedMilliCpu, long requestedGi, long expected) {
    NodeInfo node =
        nodeInfo("n", "4", "10Gi")
            .withUsage(ResourceVector.of("cpu", requestedMilliCpu, "memory", requestedGi * GI), 1);
    assertThat(score(pod("p", cpu, memory), node)).as(scenario).isEqualTo(expected);
  }

  @ParameterizedTest(name = "a pod requesting nothing scores 0 on a node {0} used")
  @CsvSource({"not at all, 0", "half, 2000"})
  void aBestEffortPodScoresNothing(String used, long requestedMilliCpu) {
    Pod bestEffort = new PodBuilder(pod("p", "1", "1Gi")).editSpec().editFirstContainer()
        .withNewResources().endResources().endContainer().endSpec().build();
    NodeInfo node = nodeInfo("n", "4", "10Gi").withUsage(ResourceVector.of("cpu", requestedMilliCpu), 1);
    assertThat(score(bestEffort, node)).isZero();
  }

  private static long score(Pod pod, NodeInfo node) {
    NodeResourcesBalancedAllocation plugin = new NodeResourcesBalancedAllocation();
    CycleState state = new CycleState();
    state.setNodes(List.of(node));
    plugin.preScore(state, pod, List.of(node));
    return plugin.score(state, pod, node);
  }
}
