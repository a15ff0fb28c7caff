package io.koord4j.kueue;

import io.koord4j.api.check.GangFeasibilityParameters;
import io.koord4j.api.check.GangFeasibilityParametersSpec;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.kueue.AdmissionCheckSpec;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How one AdmissionCheck decides: the controller's settings, overridden by the
 * GangFeasibilityParameters its {@code spec.parameters} names.
 *
 * @param topologyKey the node label whose value all pods of a gang must share; null when the gang
 *     may spread over any nodes
 */
record CheckConfig(String topologyKey, CheckSettings settings) {
  /** Node-level scope: every node carries its own name under this label. */
  static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

  static CheckConfig anywhere(CheckSettings settings) {
    return new CheckConfig(null, settings);
  }

  /**
   * @param parameters every GangFeasibilityParameters, by name
   * @throws IllegalArgumentException naming the field at fault when the reference or the
   *     parameters are missing or invalid; Kueue then sees the check inactive
   */
  static CheckConfig of(
      AdmissionCheck check, Map<String, GangFeasibilityParameters> parameters, CheckSettings defaults) {
    AdmissionCheckSpec.Parameters reference = check.getSpec().getParameters();
    if (reference == null) {
      return anywhere(defaults);
    }
    require(GangFeasibilityParameters.GROUP.equals(reference.getApiGroup()),
        "spec.parameters.apiGroup: must be " + GangFeasibilityParameters.GROUP + ", not \"" + reference.getApiGroup() + "\"");
    require(GangFeasibilityParameters.KIND.equals(reference.getKind()),
        "spec.parameters.kind: must be " + GangFeasibilityParameters.KIND + ", not \"" + reference.getKind() + "\"");
    require(reference.getName() != null && !reference.getName().isBlank(), "spec.parameters.name: required");
    GangFeasibilityParameters found = parameters.get(reference.getName());
    require(found != null,
        "spec.parameters.name: " + GangFeasibilityParameters.KIND + " \"" + reference.getName() + "\" not found");
    try {
      return of(Optional.ofNullable(found.getSpec()).orElseGet(GangFeasibilityParametersSpec::new), defaults);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          GangFeasibilityParameters.KIND + " \"" + reference.getName() + "\": " + e.getMessage(), e);
    }
  }

  private static CheckConfig of(GangFeasibilityParametersSpec spec, CheckSettings defaults) {
    String scope = Objects.requireNonNullElse(spec.getTopologyScope(), GangFeasibilityParametersSpec.SCOPE_NONE);
    String key = spec.getTopologyKey();
    String topologyKey = switch (scope) {
      case GangFeasibilityParametersSpec.SCOPE_NONE, GangFeasibilityParametersSpec.SCOPE_NODE -> {
        require(key == null, "spec.topologyKey: only allowed when spec.topologyScope is Domain");
        yield scope.equals(GangFeasibilityParametersSpec.SCOPE_NODE) ? HOSTNAME_LABEL : null;
      }
      case GangFeasibilityParametersSpec.SCOPE_DOMAIN -> {
        require(key != null && !key.isBlank(), "spec.topologyKey: required when spec.topologyScope is Domain");
        yield key;
      }
      default -> throw new IllegalArgumentException(
          "spec.topologyScope: must be None, Node or Domain, not \"" + scope + "\"");
    };
    Duration wait = Optional.ofNullable(spec.getWaitBeforeRetrySeconds())
        .map(seconds -> Duration.ofSeconds(nonNegative("spec.waitBeforeRetrySeconds", seconds)))
        .orElse(defaults.waitBeforeRetry());
    int requeue = Optional.ofNullable(spec.getRequeueAfterSeconds())
        .map(seconds -> nonNegative("spec.requeueAfterSeconds", seconds))
        .orElse(defaults.requeueAfterSeconds());
    return new CheckConfig(topologyKey, new CheckSettings(wait, requeue));
  }

  private static int nonNegative(String field, int seconds) {
    require(seconds >= 0, field + ": must not be negative, got " + seconds);
    return seconds;
  }

  private static void require(boolean rule, String problem) {
    if (!rule) {
      throw new IllegalArgumentException(problem);
    }
  }
}
