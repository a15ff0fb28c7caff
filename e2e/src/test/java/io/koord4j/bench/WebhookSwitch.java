package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Turns the registered webhook off and on by deleting and re-creating its mutating configuration
 * (a copy taken while the server had it registered), and waits until the API server acts on it.
 */
final class WebhookSwitch {
  private final KubernetesClient client;
  private final MutatingWebhookConfiguration saved;
  private final BooleanSupplier webhookCalled;

  /**
   * @param webhookCalled whether a dry-run create is mutated by the webhook right now
   */
  WebhookSwitch(KubernetesClient client, String configuration, BooleanSupplier webhookCalled) {
    this.client = client;
    this.webhookCalled = webhookCalled;
    this.saved =
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(configuration).get();
    saved.getMetadata().setResourceVersion(null);
    saved.getMetadata().setUid(null);
    saved.getMetadata().setManagedFields(null);
    saved.getMetadata().setCreationTimestamp(null);
  }

  void on() throws InterruptedException {
    client.admissionRegistration().v1().mutatingWebhookConfigurations().resource(saved).create();
    await(true);
  }

  void off() throws InterruptedException {
    client.admissionRegistration().v1().mutatingWebhookConfigurations().resource(saved).delete();
    await(false);
  }

  /** The configuration reaches the API server's webhook cache a moment after it is written. */
  void await(boolean called) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (webhookCalled.getAsBoolean() != called) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the API server did not switch the webhook within 60 s");
      }
      Thread.sleep(200);
    }
  }
}
