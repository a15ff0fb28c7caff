package io.koord4j.webhook.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import io.koord4j.webhook.admission.WouldBlock;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a request body into a handler call and the handler's answer into a reply. Anything that
 * is not an {@code admission.k8s.io/v1} AdmissionReview with a request uid gets 400 and a message.
 * A handler that fails is answered for by its route's failure policy (see {@link #undecided}),
 * except for {@link WouldBlock}, which is passed on to be answered where blocking is allowed.
 */
public final class AdmissionEndpoint {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionEndpoint.class);
  private static final String API_VERSION = "admission.k8s.io/v1";
  private static final String KIND = "AdmissionReview";
  private static final ObjectReader STRICT_READER =
      Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private AdmissionEndpoint() {}

  /**
   * @param received told of the request once it is read, so that a late answer can name it
   * @param failed told when the handler throws
   */
  public static HttpReply reply(
      AdmissionRoute route, byte[] body, Consumer<AdmissionRequest> received, Runnable failed) {
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
      review = withObjectsAsTrees(tree);
    } catch (JsonProcessingException | RuntimeException e) {
      return HttpReply.badRequest("malformed AdmissionReview: " + firstLine(e));
    }
    received.accept(review.getRequest());
    return HttpReply.json(Json.KUBERNETES.asJson(answer(route, review, failed)));
  }

  /**
   * The review with its request's {@code object} and {@code oldObject} left as JSON trees: each
   * handler reads them as the type it needs, or not at all (see {@link
   * io.koord4j.webhook.admission.AdmissionHandler}).
   */
  private static AdmissionReview withObjectsAsTrees(JsonNode tree) throws JsonProcessingException {
    ObjectNode request = (ObjectNode) tree.get("request");
    JsonNode object = request.remove("object");
    JsonNode oldObject = request.remove("oldObject");
    AdmissionReview review = Json.MAPPER.treeToValue(tree, AdmissionReview.class);
    review.getRequest().setObject(presentOrNull(object));
    review.getRequest().setOldObject(presentOrNull(oldObject));
    return review;
  }

  private static JsonNode presentOrNull(JsonNode node) {
    return node == null || node.isNull() ? null : node;
  }

  /**
   * The answer when the handler could not decide: a fail-open route allows the object with a
   * warning, as the API server would had the webhook been down; a fail-closed one refuses it.
   */
  public static HttpReply undecided(AdmissionRoute route, AdmissionRequest request, String why) {
    return HttpReply.json(Json.KUBERNETES.asJson(undecidedReview(route, request, why)));
  }

  private static AdmissionReview undecidedReview(
      AdmissionRoute route, AdmissionRequest request, String why) {
    return route.failsOpen()
        ? AdmissionResponses.allow(request, List.of("koord4j did not check this object: " + why))
        : AdmissionResponses.deny(request, 500, "koord4j could not decide on this object: " + why);
  }

  private static AdmissionReview answer(
      AdmissionRoute route, AdmissionReview review, Runnable failed) {
    AdmissionRequest request = review.getRequest();
    try {
      AdmissionReview answer = route.handler().handle(review);
      if (answer.getResponse() == null
          || !request.getUid().equals(answer.getResponse().getUid())) {
        throw new IllegalStateException("the handler answered another request");
      }
      return answer;
    } catch (WouldBlock e) {
      throw e;
    } catch (RuntimeException e) {
      LOG.warn("admission handler failed on request {}", request.getUid(), e);
      failed.run();
      return undecidedReview(route, request, e.toString());
    }
  }

  private static String firstLine(Exception e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
