package io.koord4j.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.scheduler.NodeFitCases;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeEligibilityTest {

  static List<NodeFitCases> cases() {
    return NodeFitCases.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void judgesTheNodeAsTheSchedulerDoes(NodeFitCases fit) {
    assertThat(NodeEligibility.accepts(fit.pod(), fit.node())).isEqualTo(fit.fits());
  }
}
