package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;

/** The rules of koord4j's webhooks: every object they see is namespaced. */
public final class NamespacedRules {
  private NamespacedRules() {}

  /**
   * The resource of the API group (empty for the core group) and version, on the given operations.
   */
  public static RuleWithOperations of(
      String group, String version, String resource, String... operations) {
    return new RuleWithOperationsBuilder()
        .withApiGroups(group)
        .withApiVersions(version)
        .withResources(resource)
        .withOperations(operations)
        .withScope("Namespaced")
        .build();
  }
}
