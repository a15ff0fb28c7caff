package io.koord4j.kueue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.kueue.AdmissionCheck;
import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.KueueObject;
import io.koord4j.api.kueue.Workload;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Server-side apply bodies for the status subresource. Each holds only the fields this controller
 * owns, so applying it with {@link #FIELD_MANAGER} and force never touches what Kueue wrote.
 */
final class StatusApply {
  static final String FIELD_MANAGER = AdmissionCheck.KOORD4J_CONTROLLER;
  static final String ACTIVE_REASON = "Active";
  static final String INVALID_PARAMETERS_REASON = "InvalidParameters";

  private StatusApply() {}

  /** Our entries of {@code status.admissionChecks}, a list keyed by name that Kueue shares. */
  static GenericKubernetesResource workloadChecks(String namespace, String name, List<AdmissionCheckState> checks) {
    return body(Workload.KIND, namespace, name, Map.of("admissionChecks", Serialization.jsonMapper().convertValue(checks, List.class)));
  }

  /**
   * The Active condition without which a ClusterQueue using the check admits nothing: True, or
   * False with the problem of its parameters.
   *
   * @param problem null when the check is usable
   */
  static GenericKubernetesResource activeCondition(AdmissionCheck check, String problem, Instant now) {
    Condition desired = desiredActive(check, problem);
    desired.setLastTransitionTime(CheckTransition.format(now));
    return body(AdmissionCheck.KIND, null, check.getMetadata().getName(),
        Map.of("conditions", List.of(Serialization.jsonMapper().convertValue(desired, Map.class))));
  }

  /** Whether the check's Active condition already says what {@code problem} calls for. */
  static boolean isActiveAsWanted(AdmissionCheck check, String problem) {
    Condition desired = desiredActive(check, problem);
    List<Condition> conditions = check.getStatus() == null ? null : check.getStatus().getConditions();
    return conditions != null && conditions.stream().anyMatch(condition ->
        AdmissionCheck.ACTIVE.equals(condition.getType())
            && desired.getStatus().equals(condition.getStatus())
            && desired.getReason().equals(condition.getReason())
            && desired.getMessage().equals(condition.getMessage())
            && Objects.equals(condition.getObservedGeneration(), desired.getObservedGeneration()));
  }

  private static Condition desiredActive(AdmissionCheck check, String problem) {
    return new ConditionBuilder()
        .withType(AdmissionCheck.ACTIVE)
        .withStatus(problem == null ? "True" : "False")
        .withReason(problem == null ? ACTIVE_REASON : INVALID_PARAMETERS_REASON)
        .withMessage(problem == null
            ? "koord4j lets a workload start only when all its pods can be placed at once"
            : problem)
        .withObservedGeneration(check.getMetadata().getGeneration())
        .build();
  }

  private static GenericKubernetesResource body(String kind, String namespace, String name, Map<String, Object> status) {
    GenericKubernetesResource body = new GenericKubernetesResource();
    body.setApiVersion(KueueObject.GROUP + "/" + KueueObject.VERSION);
    body.setKind(kind);
    body.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
    body.setAdditionalProperty("status", status);
    return body;
  }
}
