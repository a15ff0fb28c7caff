package io.koord4j.scheduler.plugins.loadaware;

import static io.koord4j.scheduler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodUsageEstimatorTest {

  private final PodUsageEstimator estimator =
      new PodUsageEstimator(LoadAwareArgs.defaults().estimatedScalingFactors());

  @Test
  void expectsKoordinatorsDefaultShareOfTheRequest() {
    var estimate = estimator.estimate(pod("p", "4", "10Gi"));

    assertThat(estimate.get("cpu")).isEqualTo(3400); // 85 % of 4000m
    assertThat(estimate.get("memory")).isEqualTo(Math.round(10L * 1024 * 1024 * 1024 * 0.7));
  }

  @Test
  void scalesTheLimitWhenItIsHigherThanTheRequest() {
    Pod burstable = withLimits(pod("p", "1", "1Gi"), Map.of("cpu", "4"));

    assertThat(estimator.estimate(burstable).get("cpu")).isEqualTo(3400);
  }

  @Test
  void neverExpectsMoreThanTheLimit() {
    PodUsageEstimator generous = new PodUsageEstimator(Map.of("cpu", 150L));
    Pod limited = withLimits(pod("p", "2", "1Gi"), Map.of("cpu", "2"));

    assertThat(generous.estimate(limited).get("cpu")).isEqualTo(2000);
  }

  @Test
  void expectsALittleUseFromAPodThatRequestsNothing() {
    Pod empty =
        new PodBuilder(pod("p", "1", "1Gi")).editSpec().editFirstContainer().withResources(null).endContainer().endSpec().build();

    var estimate = estimator.estimate(empty);

    assertThat(estimate.get("cpu")).isEqualTo(250);
    assertThat(estimate.get("memory")).isEqualTo(200L * 1024 * 1024);
  }

  private static Pod withLimits(Pod pod, Map<String, String> limits) {
    var builder = new PodBuilder(pod).editSpec().editFirstContainer().editResources();
    limits.forEach((resource, amount) -> builder.addToLimits(resource, new Quantity(amount)));
    return builder.endResources().endContainer().endSpec().build();
  }
}
