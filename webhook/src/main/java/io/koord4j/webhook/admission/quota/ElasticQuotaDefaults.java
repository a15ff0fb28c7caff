package io.koord4j.webhook.admission.quota;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quota.kube.ElasticQuotaSpecs;
import io.koord4j.webhook.admission.AdmissionHandler;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes Koordinator's ElasticQuota defaults into the object, so that what is stored says what
 * is meant: the parent label (the root quota when absent or empty, except on the root itself) and
 * the shared-weight annotation (the max when absent).
 */
public final class ElasticQuotaDefaults implements AdmissionHandler {

  @Override
  public AdmissionReview handle(AdmissionReview review) {
    AdmissionRequest request = review.getRequest();
    if (request.getObject() == null) {
      return AdmissionResponses.allow(request);
    }
    ElasticQuota quota = Json.MAPPER.convertValue(request.getObject(), ElasticQuota.class);
    return AdmissionResponses.allowAs(
        request,
        Json.MAPPER.valueToTree(request.getObject()),
        Json.MAPPER.valueToTree(withDefaults(quota)),
        List.of());
  }

  /** A copy of {@code quota} with the defaults filled in. */
  static ElasticQuota withDefaults(ElasticQuota quota) {
    ElasticQuota copy = Json.KUBERNETES.clone(quota);
    Map<String, String> labels = new HashMap<>(ElasticQuotaSpecs.labels(copy));
    boolean root = WellKnown.ROOT_QUOTA.equals(copy.getMetadata().getName());
    if (!root && labels.getOrDefault(WellKnown.QUOTA_PARENT, "").isEmpty()) {
      labels.put(WellKnown.QUOTA_PARENT, WellKnown.ROOT_QUOTA);
      copy.getMetadata().setLabels(labels);
    }
    Map<String, String> annotations =
        copy.getMetadata().getAnnotations() == null
            ? new HashMap<>()
            : new HashMap<>(copy.getMetadata().getAnnotations());
    Map<String, Quantity> max = copy.getSpec() == null ? null : copy.getSpec().getMax();
    if (!annotations.containsKey(WellKnown.QUOTA_SHARED_WEIGHT) && max != null) {
      annotations.put(WellKnown.QUOTA_SHARED_WEIGHT, Json.KUBERNETES.asJson(new TreeMap<>(max)));
      copy.getMetadata().setAnnotations(annotations);
    }
    return copy;
  }
}
