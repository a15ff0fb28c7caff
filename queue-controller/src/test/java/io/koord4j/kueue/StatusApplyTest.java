package io.koord4j.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.kueue.AdmissionCheckSpec;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.PodSetUpdate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusApplyTest {

  @Test
  void workloadBodyHoldsOnlyOurEntriesAndTheirOwnedFields() {
    AdmissionCheckState ready = new AdmissionCheckState();
    ready.setName("gang-check");
    ready.setState(AdmissionCheckState.READY);
    ready.setMessage("");
    ready.setLastTransitionTime("2025-01-01T12:00:00Z");
    PodSetUpdate update = new PodSetUpdate();
    update.setName("main");
    update.setAnnotations(Map.of("gang.scheduling.koordinator.sh/name", "train"));
    ready.setPodSetUpdates(List.of(update));

    GenericKubernetesResource body = StatusApply.workloadChecks("team", "train", List.of(ready));

    assertThat(Serialization.asJson(body)).isEqualTo("""
        {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload",\
        "metadata":{"name":"train","namespace":"team"},\
        "status":{"admissionChecks":[{"name":"gang-check","state":"Ready",\
        "lastTransitionTime":"2025-01-01T12:00:00Z","message":"",\
        "podSetUpdates":[{"name":"main","annotations":{"gang.scheduling.koordinator.sh/name":"train"}}]}]}}""");
  }

  @Test
  void admissionCheckBodySetsActiveForTheCurrentGeneration() {
    AdmissionCheck check = new AdmissionCheck();
    check.setMetadata(new ObjectMetaBuilder().withName("gang-check").withGeneration(3L).build());
    check.setSpec(new AdmissionCheckSpec());
    assertThat(StatusApply.isActiveAsWanted(check, null)).isFalse();

    GenericKubernetesResource body = StatusApply.activeCondition(check, null, KueueFixtures.NOW);

    assertThat(Serialization.asJson(body)).isEqualTo("""
        {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"AdmissionCheck","metadata":{"name":"gang-check"},\
        "status":{"conditions":[{"lastTransitionTime":"2025-01-01T12:00:00Z",\
        "message":"koord4j lets a workload start only when all its pods can be placed at once",\
        "observedGeneration":3,"reason":"Active","status":"True","type":"Active"}]}}""");
    AdmissionCheck applied = io.koord4j.api.kueue.KueueObject.from(body, AdmissionCheck.class);
    applied.getMetadata().setGeneration(3L);
    assertThat(StatusApply.isActiveAsWanted(applied, null)).isTrue();
    assertThat(StatusApply.isActiveAsWanted(applied, "spec.parameters.name: required"))
        .as("a problem found later turns it inactive").isFalse();
  }

  @Test
  void invalidParametersMakeTheCheckInactiveNamingTheField() {
    AdmissionCheck check = new AdmissionCheck();
    check.setMetadata(new ObjectMetaBuilder().withName("gang-check").withGeneration(1L).build());
    check.setSpec(new AdmissionCheckSpec());

    GenericKubernetesResource body =
        StatusApply.activeCondition(check, "spec.topologyKey: required", KueueFixtures.NOW);

    AdmissionCheck applied = io.koord4j.api.kueue.KueueObject.from(body, AdmissionCheck.class);
    assertThat(applied.getStatus().getConditions()).singleElement().satisfies(condition -> {
      assertThat(condition.getStatus()).isEqualTo("False");
      assertThat(condition.getReason()).isEqualTo("InvalidParameters");
      assertThat(condition.getMessage()).isEqualTo("spec.topologyKey: required");
    });
    applied.getMetadata().setGeneration(1L);
    assertThat(StatusApply.isActiveAsWanted(applied, "spec.topologyKey: required")).isTrue();
  }
}
