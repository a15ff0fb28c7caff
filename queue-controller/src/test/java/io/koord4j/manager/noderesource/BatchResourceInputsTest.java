package io.koord4j.manager.noderesource;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchResourceInputsTest {
  private static final long GIB = 1L << 30;

  @Test
  void aPodWhoseRequestCannotBeReadIsLeftOutNamingTheFieldAndTheOthersAreRead() {
    List<String> leftOut = new ArrayList<>();

    List<BatchResourceCalculator.PodInfo> pods =
        BatchResourceInputs.pods(List.of(pod("huge", "1e500000001", "1Gi"), pod("web", "1500m", "2Gi")), leftOut::add);

    assertThat(pods).singleElement().satisfies(web -> {
      assertThat(web.key()).isEqualTo("team-a/web");
      assertThat(web.request()).isEqualTo(new CpuMemory(1500, 2 * GIB));
    });
    assertThat(leftOut).containsExactly("pod team-a/huge left out: spec.containers[0].resources.requests.cpu:"
        + " \"1e500000001\" has exponent 500000001, beyond the ±64 a quantity may have");
  }

  @Test
  void requestsBeyondALongCountAsTheLargestLongNotItsLowBits() {
    List<BatchResourceCalculator.PodInfo> pods =
        BatchResourceInputs.pods(List.of(pod("vast", "1e30", "1e40")), why -> {});

    assertThat(pods.get(0).request()).isEqualTo(new CpuMemory(Long.MAX_VALUE, Long.MAX_VALUE));
    assertThat(pods.get(0).request().plus(pods.get(0).request())).isEqualTo(new CpuMemory(Long.MAX_VALUE, Long.MAX_VALUE));
  }

  private static Pod pod(String name, String cpu, String memory) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace("team-a").endMetadata()
        .withNewSpec()
        .addNewContainer().withName("main").withNewResources()
        .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory)))
        .endResources().endContainer()
        .endSpec()
        .withNewStatus().withPhase("Running").endStatus()
        .build();
  }
}
