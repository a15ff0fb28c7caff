package io.koord4j.webhook.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.webhook.admission.AdmissionHandler;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a request body into a handler call and the handler's answer into a reply. Anything that
 * is not an {@code admission.k8s.io/v1} AdmissionReview with a request uid gets 400 and a message;
 * a failing handler refuses the object (HTTP 200, allowed=false) rather than failing the call.
 */
public final class AdmissionEndpoint {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionEndpoint.class);
  private static final String API_VERSION = "admission.k8s.io/v1";
  private static final String KIND = "AdmissionReview";
  private static final ObjectReader STRICT_READER =
      Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private AdmissionEndpoint() {}

  public static HttpReply reply(AdmissionHandler handler, byte[] body) {
    JsonNode tree;
    try {
      tree = STRICT_READER.readTree(body);
    } catch (IOException e) {
      return HttpReply.badRequest("the body is not JSON: " + firstLine(e));
    }
    if (tree == null || !tree.isObject()) {
      return HttpReply.badRequest("the body is not a JSON object");
    }
    if (!API_VERSION.equals(tree.path("apiVersion").asText())
        || !KIND.equals(tree.path("kind").asText())) {
      return HttpReply.badRequest(
          "expected apiVersion " + API_VERSION + " and kind " + KIND + ", got "
              + tree.path("apiVersion") + " " + tree.path("kind"));
    }
    JsonNode uid = tree.path("request").path("uid");
    if (!uid.isTextual() || uid.asText().isBlank()) {
      return HttpReply.badRequest("request.uid must be a non-empty string");
    }
    AdmissionReview review;
    try {
      review = Json.MAPPER.treeToValue(tree, AdmissionReview.class);
    } catch (JsonProcessingException | RuntimeException e) {
      return HttpReply.badRequest("malformed AdmissionReview: " + firstLine(e));
    }
    return HttpReply.json(Json.KUBERNETES.asJson(answer(handler, review)));
  }

  private static AdmissionReview answer(AdmissionHandler handler, AdmissionReview review) {
    AdmissionRequest request = review.getRequest();
    try {
      AdmissionReview answer = handler.handle(review);
      if (answer.getResponse() == null
          || !request.getUid().equals(answer.getResponse().getUid())) {
        throw new IllegalStateException("the handler answered another request");
      }
      return answer;
    } catch (RuntimeException e) {
      LOG.warn("admission handler failed on request {}", request.getUid(), e);
      return AdmissionResponses.deny(
          request, 500, "koord4j could not decide on this object: " + e);
    }
  }

  private static String firstLine(Exception e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
