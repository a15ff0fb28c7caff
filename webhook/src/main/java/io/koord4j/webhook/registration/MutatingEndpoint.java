package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.koord4j.webhook.admission.AdmissionHandler;
import java.util.List;

/**
 * A mutating webhook besides the job mutation: the objects it sees ({@code rules}), where it is
 * served, and its handler. It is registered with failurePolicy Fail.
 *
 * @param name the webhook's name in the configuration, a DNS name such as {@code
 *     defaults.elasticquotas.koord4j.io}
 */
public record MutatingEndpoint(
    String name, String path, List<RuleWithOperations> rules, AdmissionHandler handler) {
  public MutatingEndpoint {
    rules = List.copyOf(rules);
  }
}
