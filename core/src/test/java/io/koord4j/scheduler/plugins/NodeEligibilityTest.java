package io.koord4j.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.scheduler.NodeFitCases;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeEligibilityTest {

  static List<NodeFitCases> cases() {
    return NodeFitCases.byNodeAlone();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void judgesTheNodeAsTheSchedulerDoes(NodeFitCases fit) {
    assertThat(NodeEligibility.accepts(fit.pod(), fit.node())).isEqualTo(fit.fits());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void namesTheFilterThatRefusesTheNode(NodeFitCases fit) {
    Optional<String> refusal = NodeEligibility.refusal(fit.pod(), fit.node());

    assertThat(refusal.isEmpty()).isEqualTo(fit.fits());
    refusal.ifPresent(why -> assertThat(why).matches("(NodeUnschedulable|TaintToleration|NodeAffinity): .+"));
  }
}
