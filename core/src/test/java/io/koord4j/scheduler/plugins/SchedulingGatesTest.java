package io.koord4j.scheduler.plugins;

import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Status;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SchedulingGatesTest {

  private final SchedulingGates plugin = new SchedulingGates();

  @Test
  void aPodWithoutGatesIsScheduled() {
    Pod pod = gated();
    assertThat(SchedulingGates.isGated(pod)).isFalse();
    assertThat(plugin.preFilter(new CycleState(), pod)).isEqualTo(Status.SUCCESS);
  }

  @Test
  void aGatedPodWaitsAndSaysForWhichGates() {
    Pod pod = gated("example.com/quota", "example.com/data");
    assertThat(SchedulingGates.isGated(pod)).isTrue();
    Status status = plugin.preFilter(new CycleState(), pod);
    assertThat(status.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(status.reasons())
        .containsExactly("waiting for scheduling gates: [example.com/quota, example.com/data]");
  }

  @Test
  void noClusterEventLiftsAGate() {
    assertThat(plugin.requeueOn()).isEmpty();
  }

  private static Pod gated(String... gates) {
    return new PodBuilder(pod("p", "1", "1Gi"))
        .editSpec()
        .withSchedulingGates(Arrays.stream(gates).map(PodSchedulingGate::new).toList())
        .endSpec()
        .build();
  }
}
