package io.koord4j.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.koord4j.api.WellKnown;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkflowAdapterTest {
  private final WorkflowAdapter adapter = new WorkflowAdapter();

  @Test
  void oneDefaultPodSetChargedTheDeclaredMinResources() {
    PodSetInfo podSet = adapter.podSets(workflow()).get(0);

    assertThat(adapter.podSets(workflow())).hasSize(1);
    assertThat(podSet.name()).isEqualTo("default");
    assertThat(podSet.count()).isEqualTo(1);
    assertThat(podSet.perPodRequests())
        .containsEntry("cpu", new BigDecimal(5))
        .containsEntry("memory", BigDecimal.valueOf(5L << 30))
        .containsEntry("nvidia.com/gpu", BigDecimal.ONE);
    assertThat(podSet.template().getMetadata().getLabels()).containsEntry("team", "a");
    assertThat(adapter.priorityClassName(workflow())).contains("batch");
  }

  @Test
  void minResourcesMayBeJson() {
    Workflow workflow = withMinResources("{\"cpu\": \"500m\", \"memory\": \"1Gi\"}");

    assertThat(adapter.totalRequests(workflow)).containsEntry("cpu", new BigDecimal("0.5"));
  }

  @Test
  void unparseableMinResourcesNameTheAnnotation() {
    assertThatThrownBy(() -> adapter.podSets(withMinResources("[cpu, 5]")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("metadata.annotations[koord-queue/min-resources]: \"[cpu, 5]\" is not a JSON or YAML resource list");
    assertThatThrownBy(() -> adapter.podSets(withMinResources("cpu: lots")))
        .hasMessageContaining("metadata.annotations[koord-queue/min-resources].cpu: \"lots\" is not a valid quantity");
  }

  @Test
  void heldThroughSpecSuspendAndPodMetadataIsItsTemplate() {
    Workflow suspended = adapter.suspend(workflow());
    Workflow edited =
        adapter.editPodTemplates(
            suspended,
            t -> new PodTemplateSpecBuilder(t).editMetadata().addToAnnotations("gang", "g").endMetadata().build());

    assertThat(adapter.isSuspended(workflow())).isFalse();
    assertThat(adapter.isSuspended(suspended)).isTrue();
    assertThat(adapter.podSets(edited).get(0).template().getMetadata().getAnnotations())
        .containsEntry("gang", "g");
    assertThat(adapter.podSets(edited).get(0).template().getMetadata().getLabels())
        .containsEntry("team", "a");
  }

  @Test
  void anErroredWorkflowHasFailed() {
    assertThat(adapter.status(workflow())).isEqualTo(JobPhase.FAILED);
  }

  private static Workflow workflow() {
    return Fixtures.load("workflow", Workflow.class);
  }

  private static Workflow withMinResources(String value) {
    Workflow workflow = workflow();
    Map<String, String> annotations = new HashMap<>(workflow.getMetadata().getAnnotations());
    annotations.put(WellKnown.MIN_RESOURCES, value);
    workflow.getMetadata().setAnnotations(annotations);
    return workflow;
  }
}
