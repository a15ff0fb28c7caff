package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.queue.core.AdmittedUnit;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmittedUnitFactsTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void aGangIsReadyWhenEachPodSetHasItsMinimumReadyOrElseItsCount() {
    QueueUnit unit = unit(podSet("workers", 4, 2), podSet("launcher", 1, null));
    unit.setStatus(UnitStatuses.admitted(unit, "team", T0));

    assertThat(AdmittedUnitFacts.holdsAdmission(unit)).isTrue();
    assertThat(AdmittedUnitFacts.of(unit, 2).podsReadyNow()).isFalse();
    assertThat(AdmittedUnitFacts.of(unit, 3)).isEqualTo(new AdmittedUnit(true, T0, true, false, true, 0, null));
  }

  @Test
  void theStoredUnitGivesItsActivityExecutionLimitRequeuesAndRecordedReadiness() {
    QueueUnit unit = unit(podSet("main", 1, null));
    unit.setStatus(UnitStatuses.podsReadyTimedOut(unit, 2, T0, "late", T0));
    unit.setStatus(UnitStatuses.admitted(unit, "team", T0.plusSeconds(60)));
    unit.setStatus(UnitStatuses.podsReady(unit, T0.plusSeconds(70)));
    unit.getSpec().setActive(false);
    unit.getSpec().setMaximumExecutionTimeSeconds(600);

    assertThat(AdmittedUnitFacts.of(unit, 0)).isEqualTo(
        new AdmittedUnit(false, T0.plusSeconds(60), true, true, false, 2, Duration.ofSeconds(600)));
  }

  @Test
  void aReservedUnitExpectsNoPodsAndAWaitingOneHoldsNoAdmission() {
    QueueUnit unit = unit(podSet("main", 1, null));
    assertThat(AdmittedUnitFacts.holdsAdmission(unit)).isFalse();

    unit.setStatus(UnitStatuses.reserved(unit, "team", List.of("gang"), T0));

    assertThat(AdmittedUnitFacts.holdsAdmission(unit)).isTrue();
    assertThat(AdmittedUnitFacts.of(unit, 0).podsExpected()).isFalse();
  }

  private static QueueUnit unit(PodSet... podSets) {
    QueueUnit unit = new QueueUnit();
    unit.getMetadata().setName("job");
    unit.getMetadata().setNamespace("ns");
    unit.setSpec(new QueueUnitSpec());
    unit.getSpec().setPodSet(List.of(podSets));
    return unit;
  }

  private static PodSet podSet(String name, int count, Integer minCount) {
    PodSet podSet = new PodSet();
    podSet.setName(name);
    podSet.setCount(count);
    podSet.setMinCount(minCount);
    podSet.setTemplate(new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("c").endContainer()
        .endSpec().build());
    return podSet;
  }
}
