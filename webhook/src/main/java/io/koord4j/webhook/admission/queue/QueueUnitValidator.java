package io.koord4j.webhook.admission.queue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.webhook.admission.AdmissionHandler;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import java.util.List;
import java.util.Set;

/**
 * Refuses changes to a QueueUnit's {@code spec.podSet} while the unit is admitted: quota was
 * reserved for exactly those pod sets.
 */
public final class QueueUnitValidator implements AdmissionHandler {
  private static final Set<String> ADMITTED =
      Set.of(QueueUnitPhase.RESERVED, QueueUnitPhase.DEQUEUED, QueueUnitPhase.RUNNING);

  @Override
  public AdmissionReview handle(AdmissionReview review) {
    AdmissionRequest request = review.getRequest();
    if (!"UPDATE".equals(request.getOperation())) {
      return AdmissionResponses.allow(request);
    }
    return AdmissionResponses.allowUnless(
        request,
        violations(
            Json.MAPPER.valueToTree(request.getOldObject()),
            Json.MAPPER.valueToTree(request.getObject())));
  }

  static List<String> violations(JsonNode oldUnit, JsonNode newUnit) {
    String phase = oldUnit.path("status").path("phase").asText();
    JsonNode before = oldUnit.path("spec").path("podSet");
    JsonNode after = newUnit.path("spec").path("podSet");
    if (!ADMITTED.contains(phase) || before.equals(after)) {
      return List.of();
    }
    return List.of(
        "spec.podSet: cannot change while the unit is admitted (status.phase " + phase
            + "); quota was reserved for the pod sets as they were");
  }
}
