package io.koord4j.webhook.admission.quota;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.webhook.admission.AdmissionHandler;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import java.util.Collection;
import java.util.List;

/**
 * Refuses ElasticQuota creates, updates and deletes that break the quota tree's rules.
 *
 * <p>The quotas come from a cache that may lag the API server by a moment. Decisions that a quota
 * written during that moment could turn are taken again on {@link QuotaLookup#fresh} quotas: a
 * refusal (the parent was created just before its child) and a delete (a child was created just
 * before). A write the cache lets through could only be turned by a quota written concurrently,
 * which no webhook serialises.
 */
public record ElasticQuotaValidator(QuotaLookup quotas) implements AdmissionHandler {

  @Override
  public AdmissionReview handle(AdmissionReview review) {
    AdmissionRequest request = review.getRequest();
    try {
      boolean delete = "DELETE".equals(request.getOperation());
      List<String> violations = delete ? List.of() : violations(request, quotas.all());
      if (delete || !violations.isEmpty()) {
        violations = violations(request, quotas.fresh());
      }
      return AdmissionResponses.allowUnless(request, violations);
    } catch (IllegalArgumentException e) {
      return AdmissionResponses.allowUnless(request, List.of(e.getMessage()));
    }
  }

  private static List<String> violations(AdmissionRequest request, Collection<ElasticQuota> existing) {
    return switch (request.getOperation()) {
      case "CREATE", "UPDATE" -> ElasticQuotaRules.onWrite(read(request.getObject(), request), existing);
      case "DELETE" -> ElasticQuotaRules.onDelete(read(request.getOldObject(), request), existing);
      default -> List.of();
    };
  }

  private static ElasticQuota read(Object raw, AdmissionRequest request) {
    ElasticQuota quota = Json.MAPPER.convertValue(raw, ElasticQuota.class);
    if (quota.getMetadata().getNamespace() == null) {
      quota.getMetadata().setNamespace(request.getNamespace());
    }
    return quota;
  }
}
