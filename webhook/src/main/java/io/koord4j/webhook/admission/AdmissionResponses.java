package io.koord4j.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.zjsonpatch.DiffFlags;
import io.fabric8.zjsonpatch.JsonDiff;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;

/** Builds the answers handlers give, always echoing the request's uid. */
public final class AdmissionResponses {
  private AdmissionResponses() {}

  /** The code the API server gives invalid objects. */
  private static final int HTTP_UNPROCESSABLE_ENTITY = 422;

  private static final EnumSet<DiffFlags> PLAIN_OPERATIONS =
      EnumSet.of(
          DiffFlags.OMIT_VALUE_ON_REMOVE,
          DiffFlags.OMIT_MOVE_OPERATION,
          DiffFlags.OMIT_COPY_OPERATION);

  public static AdmissionReview allow(AdmissionRequest request, List<String> warnings) {
    return review(base(request, true, warnings).build());
  }

  public static AdmissionReview allow(AdmissionRequest request) {
    return allow(request, List.of());
  }

  /**
   * Allows the object as {@code after}: the response carries an RFC 6902 patch from {@code
   * before} to {@code after}, or none when they are equal.
   */
  public static AdmissionReview allowAs(
      AdmissionRequest request, JsonNode before, JsonNode after, List<String> warnings) {
    return allowPatched(request, diff(before, after), warnings);
  }

  /** Allows the object with the RFC 6902 {@code patch} applied, or unchanged when it is empty. */
  public static AdmissionReview allowPatched(
      AdmissionRequest request, JsonNode patch, List<String> warnings) {
    if (patch.isEmpty()) {
      return allow(request, warnings);
    }
    byte[] json = patch.toString().getBytes(StandardCharsets.UTF_8);
    return review(
        base(request, true, warnings)
            .withPatchType("JSONPatch")
            .withPatch(Base64.getEncoder().encodeToString(json))
            .build());
  }

  /** Allows the request when {@code violations} is empty, else refuses it naming them all. */
  public static AdmissionReview allowUnless(AdmissionRequest request, List<String> violations) {
    return violations.isEmpty()
        ? allow(request)
        : deny(request, HTTP_UNPROCESSABLE_ENTITY, String.join("; ", violations));
  }

  /** Refuses the request; {@code message} is shown to the user, so it names field and rule. */
  public static AdmissionReview deny(AdmissionRequest request, int code, String message) {
    return review(
        base(request, false, List.of())
            .withStatus(new StatusBuilder().withCode(code).withMessage(message).build())
            .build());
  }

  /**
   * The JSON patch that turns {@code before} into {@code after}, in add, remove and replace
   * operations only, which read most plainly in audit logs.
   */
  public static JsonNode diff(JsonNode before, JsonNode after) {
    return JsonDiff.asJson(before, after, PLAIN_OPERATIONS);
  }

  private static AdmissionResponseBuilder base(
      AdmissionRequest request, boolean allowed, List<String> warnings) {
    AdmissionResponseBuilder builder =
        new AdmissionResponseBuilder().withUid(request.getUid()).withAllowed(allowed);
    return warnings.isEmpty() ? builder : builder.withWarnings(warnings);
  }

  private static AdmissionReview review(AdmissionResponse response) {
    return new AdmissionReviewBuilder()
        .withApiVersion("admission.k8s.io/v1")
        .withKind("AdmissionReview")
        .withResponse(response)
        .build();
  }
}
