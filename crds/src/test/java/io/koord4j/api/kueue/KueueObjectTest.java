package io.koord4j.api.kueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KueueObjectTest {

  static GenericKubernetesResource read(String resource) throws Exception {
    try (InputStream in = KueueObjectTest.class.getResourceAsStream("/kueue/" + resource)) {
      return Serialization.unmarshal(in, GenericKubernetesResource.class);
    }
  }

  @Test
  void typesTheNestedFieldsOfAWorkloadAndKeepsItsTopologyRequestAsKueueWroteIt() throws Exception {
    Workload workload = KueueObject.from(read("workload.yaml"), Workload.class);

    WorkloadPodSet workers = workload.getSpec().getPodSets().get(0);
    assertThat(workers.getTemplate().getSpec().getContainers().get(0).getResources().getRequests())
        .containsExactlyEntriesOf(Map.of("nvidia.com/gpu", new Quantity("2")));
    assertThat(workers.getTopologyRequest()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "preferred", "kubernetes.io/hostname",
        "podSetSliceRequiredTopology", "cloud.example.com/rack",
        "podSetSliceSize", 2));
    PodSetAssignment assignment = workload.getStatus().getAdmission().getPodSetAssignments().get(0);
    assertThat(assignment.getResourceUsage().get("nvidia.com/gpu").getNumericalAmount()).isEqualByComparingTo("8");
    PodSetUpdate update = workload.getStatus().getAdmissionChecks().get(0).getPodSetUpdates().get(0);
    assertThat(update.getTolerations()).containsExactly(
        new TolerationBuilder().withKey("gpu").withOperator("Exists").withEffect("NoSchedule").build());
  }

  @Test
  void aWorkloadFromANewerKueueReadsThoughKoord4jModelsNotAllItsFields() throws Exception {
    Workload workload = KueueObject.from(read("workload-newer-kueue.yaml"), Workload.class);

    assertThat(workload.getSpec().getPriority()).isEqualTo(100);
    assertThat(workload.getStatus().getAdmission().getPodSetAssignments().get(0).getFlavors())
        .containsEntry("nvidia.com/gpu", "a100");
    AdmissionCheckState check = workload.getStatus().getAdmissionChecks().get(0);
    assertThat(check.getState()).isEqualTo(AdmissionCheckState.PENDING);
    assertThat(check.getPodSetUpdates()).extracting(PodSetUpdate::getName).containsExactly("workers");
  }

  @Test
  void aMistypedFieldIsRefusedWithThePathToIt() throws Exception {
    GenericKubernetesResource resource = read("workload.yaml");
    podSets(resource).get(0).put("count", "four");

    assertThatThrownBy(() -> KueueObject.from(resource, Workload.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"four\"")
        .hasMessageContaining("[\"spec\"]")
        .hasMessageContaining("[\"podSets\"]")
        .hasMessageContaining("[\"count\"]");
  }

  @Test
  void anAdmissionCheckEntryWrittenBackIsTheOneKueueWrote() throws Exception {
    GenericKubernetesResource resource = read("workload.yaml");
    AdmissionCheckState entry = KueueObject.from(resource, Workload.class).getStatus().getAdmissionChecks().get(0);

    // Converted as the status apply converts it: no field renamed, reshaped or lost.
    assertThat(Serialization.jsonMapper().convertValue(entry, Map.class)).isEqualTo(admissionChecks(resource).get(0));
  }

  @Test
  void anEntryKoord4jWritesHoldsOnlyTheFieldsItSet() {
    AdmissionCheckState entry = new AdmissionCheckState();
    entry.setName("koord4j-gang-feasibility");
    entry.setState(AdmissionCheckState.PENDING);

    // A null in a server-side apply would claim, and clear, a field Kueue or another check owns.
    assertThat(Serialization.jsonMapper().convertValue(entry, Map.class))
        .isEqualTo(Map.of("name", "koord4j-gang-feasibility", "state", AdmissionCheckState.PENDING));
  }

  @Test
  void readsWhichControllerRunsACheckAndWhereItsParametersAre() throws Exception {
    AdmissionCheck check = KueueObject.from(read("admissioncheck.yaml"), AdmissionCheck.class);

    assertThat(check.getSpec().getControllerName()).isEqualTo(AdmissionCheck.KOORD4J_CONTROLLER);
    assertThat(check.getSpec().getParameters())
        .extracting("apiGroup", "kind", "name")
        .containsExactly("scheduling.koordinator.sh", "GangCheckParameters", "default");
    assertThat(check.getStatus().getConditions())
        .singleElement()
        .satisfies(active -> assertThat(active.getType()).isEqualTo(AdmissionCheck.ACTIVE))
        .satisfies(active -> assertThat(active.getStatus()).isEqualTo("True"));
  }

  @Test
  void addressesEachKindWhereKueueServesIt() throws Exception {
    assertAddresses(Workload.CONTEXT, read("workload.yaml"));
    assertAddresses(AdmissionCheck.CONTEXT, read("admissioncheck.yaml"));
  }

  /** The context reaches the objects as Kueue stores them: same group, version, kind and scope. */
  private static void assertAddresses(ResourceDefinitionContext context, GenericKubernetesResource stored) {
    assertThat(context.getGroup() + "/" + context.getVersion()).isEqualTo(stored.getApiVersion());
    assertThat(context.getKind()).isEqualTo(stored.getKind());
    assertThat(context.isNamespaceScoped()).isEqualTo(stored.getMetadata().getNamespace() != null);
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> podSets(GenericKubernetesResource resource) {
    return (List<Map<String, Object>>) ((Map<String, Object>) resource.get("spec")).get("podSets");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> admissionChecks(GenericKubernetesResource resource) {
    return (List<Map<String, Object>>) ((Map<String, Object>) resource.get("status")).get("admissionChecks");
  }
}
