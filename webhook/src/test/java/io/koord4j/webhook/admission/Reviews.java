package io.koord4j.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.zjsonpatch.JsonPatch;
import io.koord4j.testing.TestJobs;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

/** AdmissionReviews shaped like the API server's, and helpers to read the answers. */
public final class Reviews {
  private Reviews() {}

  /** A batch Job with one container, as kubectl would send it (no suspend field). */
  public static Job job(String namespace, Map<String, String> labels, Map<String, String> annotations) {
    return TestJobs.job(namespace, "train", "500m")
        .editMetadata().withLabels(labels).withAnnotations(annotations).endMetadata()
        .editSpec().withParallelism(2).withCompletions(2).endSpec()
        .build();
  }

  public static AdmissionReview create(HasMetadata object) {
    return review("CREATE", object);
  }

  public static AdmissionReview review(String operation, HasMetadata object) {
    String[] groupVersion = object.getApiVersion().contains("/")
        ? object.getApiVersion().split("/", 2)
        : new String[] {"", object.getApiVersion()};
    String resource = object.getKind().toLowerCase() + "s";
    return new AdmissionReviewBuilder()
        .withApiVersion("admission.k8s.io/v1")
        .withKind("AdmissionReview")
        .withNewRequest()
        .withUid(UUID.randomUUID().toString())
        .withNewKind(groupVersion[0], object.getKind(), groupVersion[1])
        .withNewResource(groupVersion[0], resource, groupVersion[1])
        .withNewRequestKind(groupVersion[0], object.getKind(), groupVersion[1])
        .withNewRequestResource(groupVersion[0], resource, groupVersion[1])
        .withName(object.getMetadata().getName())
        .withNamespace(object.getMetadata().getNamespace())
        .withOperation(operation)
        .withNewUserInfo()
        .withUsername("alice")
        .withGroups("system:authenticated")
        .endUserInfo()
        .withObject(Json.MAPPER.convertValue(object, Map.class))
        .withDryRun(false)
        .endRequest()
        .build();
  }

  /** An UPDATE from {@code before} to {@code after}. */
  public static AdmissionReview update(HasMetadata before, HasMetadata after) {
    AdmissionReview review = review("UPDATE", after);
    review.getRequest().setOldObject(Json.MAPPER.convertValue(before, Map.class));
    return review;
  }

  /** The object as the API server stores it: the request's object with the patch applied. */
  public static JsonNode patched(AdmissionReview request, AdmissionReview answer) {
    JsonNode original = Json.MAPPER.valueToTree(request.getRequest().getObject());
    String patch = answer.getResponse().getPatch();
    if (patch == null) {
      return original;
    }
    return JsonPatch.apply(patchOps(answer), original);
  }

  public static JsonNode patchOps(AdmissionReview answer) {
    byte[] json = Base64.getDecoder().decode(answer.getResponse().getPatch());
    try {
      return Json.MAPPER.readTree(new String(json, StandardCharsets.UTF_8));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
