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

  private StatusApply() {}

  /** Our entries of {@code status.admissionChecks}, a list keyed by name that Kueue shares. */
  static GenericKubernetesResource workloadChecks(String namespace, String name, List<AdmissionCheckState> checks) {
    return body(Workload.KIND, namespace, name, Map.of("admissionChecks", Serialization.jsonMapper().convertValue(checks, List.class)));
  }

  /** The Active condition without which a ClusterQueue using the check admits nothing. */
  static GenericKubernetesResource activeCondition(AdmissionCheck check, Instant now) {
    Condition active = new ConditionBuilder()
        .withType(AdmissionCheck.ACTIVE)
        .withStatus("True")
        .withReason(ACTIVE_REASON)
        .withMessage("koord4j lets a workload start only when all its pods can be placed at once")
        .withObservedGeneration(check.getMetadata().getGeneration())
        .withLastTransitionTime(CheckTransition.format(now))
        .build();
    return body(AdmissionCheck.KIND, null, check.getMetadata().getName(),
        Map.of("conditions", List.of(Serialization.jsonMapper().convertValue(active, Map.class))));
  }

  /** Whether the check already says Active for its current generation. */
  static boolean isActive(AdmissionCheck check) {
    List<Condition> conditions = check.getStatus() == null ? null : check.getStatus().getConditions();
    return conditions != null && conditions.stream().anyMatch(condition ->
        AdmissionCheck.ACTIVE.equals(condition.getType())
            && "True".equals(condition.getStatus())
            && Objects.equals(condition.getObservedGeneration(), check.getMetadata().getGeneration()));
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
