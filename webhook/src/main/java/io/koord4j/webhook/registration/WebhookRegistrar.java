package io.koord4j.webhook.registration;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Writes the webhook configurations with server-side apply, so that every replica can apply the
 * same desired state (including a new caBundle) without reading it first.
 */
public final class WebhookRegistrar {
  private static final String FIELD_MANAGER = "koord4j-webhook";

  private final KubernetesClient client;

  public WebhookRegistrar(KubernetesClient client) {
    this.client = client;
  }

  public void apply(MutatingWebhookConfiguration mutating, ValidatingWebhookConfiguration validating) {
    client
        .admissionRegistration()
        .v1()
        .mutatingWebhookConfigurations()
        .resource(mutating)
        .fieldManager(FIELD_MANAGER)
        .forceConflicts()
        .serverSideApply();
    client
        .admissionRegistration()
        .v1()
        .validatingWebhookConfigurations()
        .resource(validating)
        .fieldManager(FIELD_MANAGER)
        .forceConflicts()
        .serverSideApply();
  }

  /** Removes both configurations, e.g. on uninstall; a stopped server leaves them in place. */
  public void delete(WebhookConfigurations.Names names) {
    client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(names.mutating()).delete();
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(names.validating()).delete();
  }
}
