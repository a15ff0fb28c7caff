package io.koord4j.scheduler.plugins;

import static io.koord4j.scheduler.Fixtures.nodeInfo;
import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeNameTest {

  @ParameterizedTest(name = "pod asking for node ''{0}'' on node n1 fits: {1}")
  @CsvSource({"'', true", "n1, true", "n2, false"})
  void aPodThatNamesANodeFitsThatNodeOnly(String nodeName, boolean fits) {
    Pod pod = new PodBuilder(pod("p", "1", "1Gi")).editSpec().withNodeName(nodeName).endSpec().build();
    Status status = new NodeName().filter(new CycleState(), pod, nodeInfo("n1", "8", "8Gi"));
    assertThat(status.isSuccess()).isEqualTo(fits);
    if (!fits) {
      assertThat(status.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
      assertThat(status.reasons()).containsExactly("node(s) didn't match the requested node name");
    }
  }
}
