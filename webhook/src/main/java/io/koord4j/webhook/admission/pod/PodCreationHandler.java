package io.koord4j.webhook.admission.pod;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.webhook.admission.AdmissionHandler;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;

/** A handler of pod creations: any other review is allowed as it is. */
interface PodCreationHandler extends AdmissionHandler {
  @Override
  default AdmissionReview handle(AdmissionReview review) {
    AdmissionRequest request = review.getRequest();
    if (!"CREATE".equals(request.getOperation()) || request.getObject() == null) {
      return AdmissionResponses.allow(request);
    }
    Object pod = request.getObject();
    return created(request, pod instanceof JsonNode tree ? tree : Json.MAPPER.valueToTree(pod));
  }

  /**
   * The answer to the creation of {@code pod}, the request's object as JSON, which the handler
   * reads but does not change: a mutation is made on a copy.
   */
  AdmissionReview created(AdmissionRequest request, JsonNode pod);
}
