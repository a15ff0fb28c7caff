package io.koord4j.webhook.admission.quota;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.webhook.admission.AdmissionHandler;
import io.koord4j.webhook.admission.AdmissionResponses;
import io.koord4j.webhook.admission.Json;
import java.util.List;

/** Refuses ElasticQuota creates, updates and deletes that break the quota tree's rules. */
public final class ElasticQuotaValidator implements AdmissionHandler {
  private final QuotaLookup quotas;

  public ElasticQuotaValidator(QuotaLookup quotas) {
    this.quotas = quotas;
  }

  @Override
  public AdmissionReview handle(AdmissionReview review) {
    AdmissionRequest request = review.getRequest();
    try {
      List<String> violations =
          switch (request.getOperation()) {
            case "CREATE", "UPDATE" ->
                ElasticQuotaRules.onWrite(read(request.getObject(), request), quotas.all());
            case "DELETE" ->
                ElasticQuotaRules.onDelete(read(request.getOldObject(), request), quotas.all());
            default -> List.of();
          };
      return AdmissionResponses.allowUnless(request, violations);
    } catch (IllegalArgumentException e) {
      return AdmissionResponses.allowUnless(request, List.of(e.getMessage()));
    }
  }

  private static ElasticQuota read(Object raw, AdmissionRequest request) {
    ElasticQuota quota = Json.MAPPER.convertValue(raw, ElasticQuota.class);
    if (quota.getMetadata().getNamespace() == null) {
      quota.getMetadata().setNamespace(request.getNamespace());
    }
    return quota;
  }
}
