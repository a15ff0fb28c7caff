package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
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
 * @param matchConditions CEL expressions, all of which the request must meet for the API server to
 *     call the webhook: they spare a round trip for writes the handler would not look at
 */
public record ValidatingEndpoint(
    String name,
    String path,
    List<RuleWithOperations> rules,
    AdmissionHandler handler,
    List<MatchCondition> matchConditions) {
  public ValidatingEndpoint {
    rules = List.copyOf(rules);
    matchConditions = List.copyOf(matchConditions);
  }

  /** A webhook for every write the rules match. */
  public ValidatingEndpoint(String name, String path, List<RuleWithOperations> rules, AdmissionHandler handler) {
    this(name, path, rules, handler, List.of());
  }
}
