package io.koord4j.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Turns registered webhooks off and on by deleting and re-creating their configurations (copies
 * taken while they were registered), and waits until the API server acts on it.
 */
final class WebhookSwitch {
  private final KubernetesClient client;
  private final List<HasMetadata> saved;
  private final BooleanSupplier webhookCalled;

  /**
   * @param mutating the mutating configuration that {@code webhookCalled} sees
   * @param validating a validating configuration switched with it, or null
   * @param webhookCalled whether a dry-run create is mutated by the webhook right now
   */
  WebhookSwitch(KubernetesClient client, String mutating, String validating, BooleanSupplier webhookCalled) {
    this.client = client;
    this.webhookCalled = webhookCalled;
    // Validating first: when the mutating one is seen working, the other is in place too.
    this.saved =
        Stream.<HasMetadata>of(
                validating == null
                    ? null
                    : client.admissionRegistration().v1().validatingWebhookConfigurations().withName(validating).get(),
                client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(mutating).get())
            .filter(Objects::nonNull)
            .map(WebhookSwitch::detached)
            .toList();
  }

  void on() throws InterruptedException {
    saved.forEach(configuration -> client.resource(configuration).create());
    await(true);
  }

  void off() throws InterruptedException {
    saved.forEach(configuration -> client.resource(configuration).delete());
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

  private static <T extends HasMetadata> T detached(T configuration) {
    configuration.getMetadata().setResourceVersion(null);
    configuration.getMetadata().setUid(null);
    configuration.getMetadata().setManagedFields(null);
    configuration.getMetadata().setCreationTimestamp(null);
    configuration.getMetadata().setGeneration(null);
    return configuration;
  }
}
