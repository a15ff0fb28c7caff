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
    return created(request, Json.MAPPER.valueToTree(request.getObject()));
  }

  /** The answer to the creation of {@code pod}, the request's object as JSON. */
  AdmissionReview created(AdmissionRequest request, JsonNode pod);
}
