package io.koord4j.webhook.admission.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import io.koord4j.webhook.admission.quota.QuotaLookup;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Keeps the pods of an ElasticQuotaProfile's quota tree on the profile's nodes, as Koordinator's
 * pod webhook does: a pod created in such a tree ({@link QuotaTreeNodes}) gets the profile's node
 * selector as required node affinity. Its own required terms stay alternatives, each now also
 * requiring the profile's labels; a pod without any gets one term of them. Requirements a term
 * already holds are not added twice. Other pods, and updates, are left as they are.
 *
 * <p>A profile whose selector has no node affinity counterpart (an unknown operator) refuses the
 * pod, naming the profile and field: placed anywhere, the pod would use nodes its tree does not
 * own.
 */
public record PodQuotaTreeMutator(QuotaLookup quotas, ProfileLookup profiles) implements PodCreationHandler {
  private static final int HTTP_UNPROCESSABLE_ENTITY = 422;

  @Override
  public AdmissionReview created(AdmissionRequest request, JsonNode pod) {
    Collection<ElasticQuotaProfile> known = profiles.all();
    if (known.isEmpty()) {
      return AdmissionResponses.allow(request); // the common case: no pod is read
    }
    Pod read = Json.MAPPER.convertValue(pod, Pod.class);
    if (read.getMetadata().getNamespace() == null) {
      read.getMetadata().setNamespace(request.getNamespace());
    }
    Optional<ElasticQuotaProfile> profile = QuotaTreeNodes.profileOf(read, quotas.all(), known);
    if (profile.isEmpty()) {
      return AdmissionResponses.allow(request);
    }
    List<NodeSelectorRequirement> requirements;
    try {
      requirements = QuotaTreeNodes.requirements(profile.get());
    } catch (IllegalArgumentException e) {
      return AdmissionResponses.deny(request, HTTP_UNPROCESSABLE_ENTITY,
          e.getMessage() + "; the pod's quota tree cannot be kept to its nodes");
    }
    return AdmissionResponses.allowAs(request, pod, withRequired(pod, requirements), List.of());
  }

  /** The pod with every required node selector term also requiring {@code requirements}. */
  static JsonNode withRequired(JsonNode pod, List<NodeSelectorRequirement> requirements) {
    ObjectNode mutated = pod.deepCopy();
    ObjectNode required = child(child(child(child(mutated, "spec"), "affinity"), "nodeAffinity"),
        "requiredDuringSchedulingIgnoredDuringExecution");
    ArrayNode terms = required.get("nodeSelectorTerms") instanceof ArrayNode array
        ? array : required.putArray("nodeSelectorTerms");
    if (terms.isEmpty()) {
      terms.addObject();
    }
    for (JsonNode term : terms) {
      ArrayNode expressions = ((ObjectNode) term).get("matchExpressions") instanceof ArrayNode array
          ? array : ((ObjectNode) term).putArray("matchExpressions");
      for (NodeSelectorRequirement requirement : requirements) {
        JsonNode expression = Json.MAPPER.valueToTree(requirement);
        if (!contains(expressions, expression)) {
          expressions.add(expression);
        }
      }
    }
    return mutated;
  }

  private static boolean contains(ArrayNode array, JsonNode element) {
    for (JsonNode existing : array) {
      if (existing.equals(element)) {
        return true;
      }
    }
    return false;
  }

  private static ObjectNode child(ObjectNode parent, String field) {
    return parent.get(field) instanceof ObjectNode object ? object : parent.putObject(field);
  }
}
