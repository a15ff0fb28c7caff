package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpectedRuntimesTest {

  private static PodSet podSet(Long deadlineSeconds) {
    PodSet podSet = new PodSet();
    podSet.setName("workers");
    podSet.setCount(2);
    podSet.setTemplate(new PodTemplateSpecBuilder().withNewSpec().withActiveDeadlineSeconds(deadlineSeconds).endSpec().build());
    return podSet;
  }

  private static QueueUnit unit(Map<String, String> annotations, PodSet... podSets) {
    QueueUnit unit = new QueueUnit();
    unit.setMetadata(new ObjectMetaBuilder().withName("job").withNamespace("ns").withAnnotations(annotations).build());
    unit.setSpec(new QueueUnitSpec());
    unit.getSpec().setPodSet(Arrays.asList(podSets));
    return unit;
  }

  @Test
  void theAnnotationComesFirstThenTheLongestDeadlineOfThePodTemplates() {
    assertThat(ExpectedRuntimes.of(unit(Map.of(WellKnown.EXPECTED_RUNTIME_SECONDS, "600"), podSet(3600L))))
        .isEqualTo(Duration.ofMinutes(10));
    assertThat(ExpectedRuntimes.of(unit(Map.of(), podSet(3600L), podSet(7200L)))).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void aPodSetWithoutDeadlineOrAnUnreadableAnnotationLeavesTheRuntimeUnknown() {
    assertThat(ExpectedRuntimes.of(unit(Map.of(), podSet(3600L), podSet(null)))).isNull();
    assertThat(ExpectedRuntimes.of(unit(Map.of(WellKnown.EXPECTED_RUNTIME_SECONDS, "1h"), podSet(3600L)))).isNull();
  }

  @Test
  void aBadValueIsNamedWithItsRule() {
    assertThatThrownBy(() -> ExpectedRuntimes.parse("0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("annotation koord4j.io/expected-runtime-seconds '0' must be a whole number of seconds above 0");
  }
}
