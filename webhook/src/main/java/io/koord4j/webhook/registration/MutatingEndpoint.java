package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.koord4j.webhook.admission.AdmissionHandler;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A mutating webhook besides the job mutation: the objects it sees ({@code rules}, narrowed by
 * {@code objectSelector}), where it is served, its handler, and what the API server does when the
 * webhook cannot be reached.
 *
 * @param name the webhook's name in the configuration, a DNS name such as {@code
 *     defaults.elasticquotas.koord4j.io}
 * @param objectSelector labels the objects must carry, or null for every object
 * @param matchConditions CEL expressions, all of which the object must meet for the API server to
 *     call the webhook: they spare a round trip for objects the handler would leave as they are
 * @param failurePolicy {@code Fail} (the object is refused while koord4j is down) or {@code
 *     Ignore} (it is stored unmutated)
 * @param wanted whether the webhook is to be in the configuration now: while it says no, the API
 *     server does not call it (its path still answers); the server registers again when told the
 *     answer may have changed
 */
public record MutatingEndpoint(
    String name,
    String path,
    List<RuleWithOperations> rules,
    AdmissionHandler handler,
    LabelSelector objectSelector,
    String failurePolicy,
    List<MatchCondition> matchConditions,
    BooleanSupplier wanted) {
  public MutatingEndpoint {
    rules = List.copyOf(rules);
    matchConditions = List.copyOf(matchConditions);
  }

  /** A webhook for every object the rules and selector match. */
  public MutatingEndpoint(
      String name,
      String path,
      List<RuleWithOperations> rules,
      AdmissionHandler handler,
      LabelSelector objectSelector,
      String failurePolicy) {
    this(name, path, rules, handler, objectSelector, failurePolicy, List.of(), () -> true);
  }

  /** A webhook for every object the rules match, failing closed. */
  public MutatingEndpoint(
      String name, String path, List<RuleWithOperations> rules, AdmissionHandler handler) {
    this(name, path, rules, handler, null, "Fail");
  }
}
