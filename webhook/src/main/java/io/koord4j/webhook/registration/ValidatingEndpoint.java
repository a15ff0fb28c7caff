package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.koord4j.webhook.admission.AdmissionHandler;
import java.util.List;

/**
 * A validating webhook: the objects it sees ({@code rules}), where it is served, and its handler.
 * Validation of a new kind (ElasticQuota, Queue) is one more of these passed to the server; it is
 * registered with failurePolicy Fail.
 *
 * @param name the webhook's name in the configuration, a DNS name such as {@code
 *     elasticquotas.koord4j.io}
 */
public record ValidatingEndpoint(
    String name, String path, List<RuleWithOperations> rules, AdmissionHandler handler) {
  public ValidatingEndpoint {
    rules = List.copyOf(rules);
  }
}
