package io.koord4j.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FitErrorTest {

  @Test
  void countsNodesPerReasonInAlphabeticalOrder() {
    Status cpu = Status.unschedulable("Insufficient cpu").by("NodeResourcesFit");
    Status taint =
        Status.unresolvable("node(s) had untolerated taint {dedicated: gpu}").by("TaintToleration");
    FitError error =
        new FitError(
            5, null, Map.of("a", cpu, "b", cpu, "c", cpu, "d", taint, "e", taint));

    assertThat(error.message())
        .isEqualTo(
            "0/5 nodes are available: 3 Insufficient cpu,"
                + " 2 node(s) had untolerated taint {dedicated: gpu}.");
    assertThat(error.rejectors()).containsExactly("NodeResourcesFit", "TaintToleration");
  }

  @Test
  void aNodeWithSeveralShortagesCountsForEach() {
    Status both =
        new Status(
            Status.Code.UNSCHEDULABLE, "NodeResourcesFit", List.of("Insufficient cpu", "Insufficient memory"));
    assertThat(new FitError(1, null, Map.of("a", both)).message())
        .isEqualTo("0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.");
  }

  @Test
  void aPreFilterRejectionIsTheWholeStory() {
    FitError error = FitError.atPreFilter(3, Status.unschedulable("quota full").by("ElasticQuota"));
    assertThat(error.message()).isEqualTo("0/3 nodes are available: quota full.");
    assertThat(error.rejectors()).containsExactly("ElasticQuota");
  }
}
