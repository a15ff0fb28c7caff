package io.koord4j.webhook.admission.queue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.queue.QueuePolicy;
import io.koord4j.webhook.admission.AdmissionHandler;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import java.util.List;

/** Refuses a Queue whose {@code spec.queuePolicy} the queue controller does not know. */
public final class QueueValidator implements AdmissionHandler {
  private static final List<String> POLICIES =
      List.of(QueuePolicy.PRIORITY, QueuePolicy.BLOCK, QueuePolicy.FIFO, QueuePolicy.INTELLIGENT);

  @Override
  public AdmissionReview handle(AdmissionReview review) {
    JsonNode queue = Json.MAPPER.valueToTree(review.getRequest().getObject());
    return AdmissionResponses.allowUnless(review.getRequest(), violations(queue));
  }

  /** An absent policy means Priority. */
  static List<String> violations(JsonNode queue) {
    JsonNode policy = queue.path("spec").path("queuePolicy");
    if (policy.isMissingNode() || policy.isNull() || POLICIES.contains(policy.asText())) {
      return List.of();
    }
    return List.of(
        "spec.queuePolicy: \"" + policy.asText() + "\" is not supported; use Priority, Block or "
            + "FIFO (legacy, served as Priority) or Intelligent");
  }
}
