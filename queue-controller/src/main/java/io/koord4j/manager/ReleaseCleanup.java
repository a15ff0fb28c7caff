package io.koord4j.manager;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.webhook.WebhookSettings;
import io.koord4j.webhook.registration.WebhookRegistrar;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an uninstall removes besides the chart's own objects: the webhook configurations and the
 * certificate Secret the manager wrote, and the components' Leases. It waits until the
 * components' pods are gone first, so that none writes them again.
 *
 * <p>Environment: {@code KOORD4J_NAMESPACE}, {@code KOORD4J_RELEASE_PODS} (label selector of the
 * components' pods), {@code KOORD4J_RELEASE_LEASES} (comma-separated Lease names).
 */
final class ReleaseCleanup {
  private static final Logger LOG = LoggerFactory.getLogger(ReleaseCleanup.class);
  private static final Duration PODS_GONE_TIMEOUT = Duration.ofMinutes(2);

  private ReleaseCleanup() {}

  static void run(KubernetesClient client, Map<String, String> env) throws InterruptedException {
    WebhookSettings webhook = WebhookSettings.fromEnvironment(env);
    String namespace = webhook.namespace();
    awaitPodsGone(client, namespace, required(env, "KOORD4J_RELEASE_PODS"));
    new WebhookRegistrar(client).delete(webhook.configurationNames());
    client.secrets().inNamespace(namespace).withName(webhook.secretName()).delete();
    for (String lease : List.of(required(env, "KOORD4J_RELEASE_LEASES").split(","))) {
      client.resources(Lease.class).inNamespace(namespace).withName(lease.strip()).delete();
    }
    LOG.info(
        "removed the webhook configurations {}, Secret {}/{} and Leases {}",
        webhook.configurationNames(), namespace, webhook.secretName(), env.get("KOORD4J_RELEASE_LEASES"));
  }

  private static void awaitPodsGone(KubernetesClient client, String namespace, String selector)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(PODS_GONE_TIMEOUT);
    while (!client.pods().inNamespace(namespace).withLabelSelector(selector).list().getItems().isEmpty()) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException(
            "pods " + selector + " in " + namespace + " still run after " + PODS_GONE_TIMEOUT);
      }
      Thread.sleep(1000);
    }
  }

  static String required(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must be set");
    }
    return value;
  }
}
