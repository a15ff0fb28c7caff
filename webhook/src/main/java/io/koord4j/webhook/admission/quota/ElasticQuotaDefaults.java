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
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Writes Koordinator's ElasticQuota defaults into the object, so that what is stored says what
 * is meant: the parent label (the root quota when absent or empty, except on the root itself), the
 * tree-id label (the parent's when absent) and the shared-weight annotation (the max when absent).
 *
 * @param quotas every ElasticQuota, to find a child's parent
 */
public record ElasticQuotaDefaults(QuotaLookup quotas) implements AdmissionHandler {

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
        Json.MAPPER.valueToTree(withDefaults(quota, quotas)),
        List.of());
  }

  /** A copy of {@code quota} with the defaults filled in; {@code existing} holds its parent. */
  static ElasticQuota withDefaults(ElasticQuota quota, QuotaLookup existing) {
    ElasticQuota copy = Json.KUBERNETES.clone(quota);
    Map<String, String> labels = new HashMap<>(ElasticQuotaSpecs.labels(copy));
    boolean root = WellKnown.ROOT_QUOTA.equals(copy.getMetadata().getName());
    if (!root && labels.getOrDefault(WellKnown.QUOTA_PARENT, "").isEmpty()) {
      labels.put(WellKnown.QUOTA_PARENT, WellKnown.ROOT_QUOTA);
    }
    if (!labels.containsKey(WellKnown.QUOTA_TREE_ID)) {
      parentTreeId(labels.get(WellKnown.QUOTA_PARENT), existing)
          .ifPresent(treeId -> labels.put(WellKnown.QUOTA_TREE_ID, treeId));
    }
    if (!labels.equals(ElasticQuotaSpecs.labels(copy))) {
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

  /**
   * A child without a tree-id is in its parent's tree, as Koordinator places it. A parent written
   * a moment ago may be missing from the cache; then it is looked up afresh.
   */
  private static Optional<String> parentTreeId(String parent, QuotaLookup existing) {
    Optional<ElasticQuota> found = named(parent, existing.all());
    if (found.isEmpty() && !WellKnown.ROOT_QUOTA.equals(parent)) {
      found = named(parent, existing.fresh());
    }
    return found
        .map(quota -> ElasticQuotaSpecs.labels(quota).get(WellKnown.QUOTA_TREE_ID))
        .filter(treeId -> !treeId.isEmpty());
  }

  private static Optional<ElasticQuota> named(String name, Collection<ElasticQuota> quotas) {
    return quotas.stream().filter(quota -> quota.getMetadata().getName().equals(name)).findFirst();
  }
}
