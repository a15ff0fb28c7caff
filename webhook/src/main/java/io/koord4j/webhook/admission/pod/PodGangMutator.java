package io.koord4j.webhook.admission.pod;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.WellKnown;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Makes the pods of an admitted queued job members of its gang in both notations the schedulers
 * read: the label {@code pod-group.scheduling.sigs.k8s.io} (PodGroup) and Koordinator's
 * annotations {@code gang.scheduling.koordinator.sh/name} and {@code .../min-available}. The
 * manager puts only the label on the pod templates when it resumes a gang job, and a job
 * controller may rebuild its templates without it.
 *
 * <p>A pod belongs to a queued job when it names the job's QueueUnit with the annotation {@code
 * koord-queue/related-queueunit: <ns>/<unit>} (copied from the template), or, failing that, when
 * a batch Job controls it (the unit is named like the job). Its gang is the PodGroup named by its
 * pod-group label or gang annotation, else named like the unit. Until that PodGroup exists the job
 * was not admitted as a gang, and the pod is left as it is. Only missing keys are added, so a pod
 * that already carries all three gets no patch.
 */
public record PodGangMutator(GangLookup gangs) implements PodCreationHandler {
  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

  @Override
  public AdmissionReview created(AdmissionRequest request, JsonNode pod) {
    Map<String, String> labels = strings(pod.path("metadata").path("labels"));
    Map<String, String> annotations = strings(pod.path("metadata").path("annotations"));
    if (labels.containsKey(WellKnown.POD_GROUP_LABEL)
        && annotations.containsKey(WellKnown.GANG_NAME)
        && annotations.containsKey(WellKnown.GANG_MIN_AVAILABLE)) {
      return AdmissionResponses.allow(request);
    }
    String namespace = request.getNamespace();
    Optional<String> unit = queueUnit(pod, annotations, namespace);
    if (unit.isEmpty()) {
      return AdmissionResponses.allow(request);
    }
    String group =
        Stream.of(labels.get(WellKnown.POD_GROUP_LABEL), annotations.get(WellKnown.GANG_NAME))
            .filter(PodGangMutator::isSet)
            .findFirst()
            .orElse(unit.get());
    OptionalInt minMember = gangs.minMember(namespace, group);
    if (minMember.isEmpty()) {
      return AdmissionResponses.allow(request);
    }
    ObjectNode member = pod.deepCopy();
    ObjectNode metadata = child(member, "metadata");
    child(metadata, "labels").putIfAbsent(WellKnown.POD_GROUP_LABEL, member.textNode(group));
    ObjectNode gangAnnotations = child(metadata, "annotations");
    gangAnnotations.putIfAbsent(WellKnown.GANG_NAME, member.textNode(group));
    gangAnnotations.putIfAbsent(
        WellKnown.GANG_MIN_AVAILABLE, member.textNode(Integer.toString(minMember.getAsInt())));
    return AdmissionResponses.allowAs(request, pod, member, List.of());
  }

  /** The name of the pod's QueueUnit, which lives in the pod's namespace. */
  private static Optional<String> queueUnit(
      JsonNode pod, Map<String, String> annotations, String namespace) {
    String related = WellKnown.readQueueKey(annotations, WellKnown.RELATED_QUEUEUNIT);
    if (related != null) {
      String[] parts = related.split("/", 2);
      return parts.length == 2 && parts[0].equals(namespace) && isSet(parts[1])
          ? Optional.of(parts[1])
          : Optional.empty();
    }
    return StreamSupport.stream(pod.path("metadata").path("ownerReferences").spliterator(), false)
        .filter(owner -> owner.path("controller").asBoolean(false))
        .filter(owner -> "batch/v1".equals(owner.path("apiVersion").asText()))
        .filter(owner -> "Job".equals(owner.path("kind").asText()))
        .map(owner -> owner.path("name").asText())
        .filter(PodGangMutator::isSet)
        .findFirst();
  }

  private static Map<String, String> strings(JsonNode node) {
    return node.isObject() ? Json.MAPPER.convertValue(node, STRING_MAP) : Map.of();
  }

  private static ObjectNode child(ObjectNode parent, String field) {
    return parent.get(field) instanceof ObjectNode object ? object : parent.putObject(field);
  }

  private static boolean isSet(String value) {
    return value != null && !value.isBlank();
  }
}
