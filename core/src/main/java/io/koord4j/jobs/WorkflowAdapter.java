package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.quantity.ResourceQuantities;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * An Argo Workflow, held through {@code spec.suspend}. Its steps start pods over time, so it is
 * charged what its owner declares in the annotation {@code koord-queue/min-resources} (a JSON or
 * YAML resource list, as in koord-queue), as one pod set of one pod named {@code default}; without
 * the annotation it is queued for order but charged nothing.
 *
 * <p>Argo puts {@code spec.podMetadata} on every pod of the workflow; that is its pod template.
 */
public final class WorkflowAdapter implements SuspendedInSpec<Workflow> {

  static final String POD_SET_NAME = "default";
  private static final String MIN_RESOURCES_PATH =
      "metadata.annotations[" + WellKnown.MIN_RESOURCES + "]";

  @Override
  public Class<Workflow> type() {
    return Workflow.class;
  }

  @Override
  public Workflow editPodTemplates(Workflow workflow, UnaryOperator<PodTemplateSpec> edit) {
    return JobFields.editedCopy(workflow, copy -> {
      Map<String, Object> podMetadata = JobFields.mutableObject(JobFields.spec(copy), "podMetadata");
      JobFields.putPodMetadata(podMetadata, edit.apply(podMetadata(copy)));
    });
  }

  @Override
  public List<PodSetInfo> podSets(Workflow workflow) {
    Map<String, BigDecimal> minResources = minResources(workflow);
    PodTemplateSpec template =
        new PodTemplateSpecBuilder(podMetadata(workflow))
            .editSpec()
            .withPriorityClassName(JobFields.string(JobFields.spec(workflow), "podPriorityClassName").orElse(null))
            .addNewContainer()
            .withName("main")
            .withNewResources()
            .withRequests(ResourceQuantities.toQuantities(minResources))
            .endResources()
            .endContainer()
            .endSpec()
            .build();
    return List.of(new PodSetInfo(POD_SET_NAME, 1, 1, template, minResources));
  }

  @Override
  public Optional<String> priorityClassName(Workflow workflow) {
    return JobFields.string(JobFields.spec(workflow), "podPriorityClassName");
  }

  @Override
  public JobPhase status(Workflow workflow) {
    return switch (JobFields.statusText(workflow, "phase")) {
      case "Succeeded" -> JobPhase.SUCCEEDED;
      case "Failed", "Error" -> JobPhase.FAILED;
      case "Running" -> JobPhase.RUNNING;
      default -> JobPhase.PENDING;
    };
  }

  private static Map<String, BigDecimal> minResources(Workflow workflow) {
    String text =
        WellKnown.readQueueKey(workflow.getMetadata().getAnnotations(), WellKnown.MIN_RESOURCES);
    Map<String, BigDecimal> amounts = new TreeMap<>();
    if (text == null || text.isBlank()) {
      return amounts;
    }
    Object parsed;
    try {
      parsed = Serialization.unmarshal(text, Object.class);
    } catch (RuntimeException e) {
      parsed = null;
    }
    if (!(parsed instanceof Map<?, ?> list)) {
      throw new IllegalArgumentException(
          MIN_RESOURCES_PATH + ": \"" + text.strip() + "\" is not a JSON or YAML resource list");
    }
    list.forEach(
        (resource, quantity) ->
            amounts.put(
                resource.toString(),
                ResourceQuantities.parse(
                    new Quantity(String.valueOf(quantity)),
                    PodRequests.fieldOf(MIN_RESOURCES_PATH, resource.toString()))));
    return amounts;
  }

  private static PodTemplateSpec podMetadata(Workflow workflow) {
    return JobFields.podMetadataTemplate(
        JobFields.object(JobFields.spec(workflow), "podMetadata", "spec").orElse(Map.of()),
        "spec.podMetadata");
  }
}
