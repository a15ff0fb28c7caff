package io.koord4j.webhook;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the webhook alone, with the cluster from KUBECONFIG (or the in-cluster account).
 *
 * <p>Environment: {@code KOORD4J_NAMESPACE} (default {@code koord4j-system}), {@code
 * KOORD4J_WEBHOOK_PORT} (9443), {@code KOORD4J_WEBHOOK_URL_HOST} (e.g. {@code 127.0.0.1}: register
 * a URL instead of the Service), {@code KOORD4J_MANAGED_NAMESPACES} ({@code key=value}: the label
 * of namespaces whose jobs are all queued), {@code KOORD4J_NAMESPACE_DEFAULT_QUEUE} ({@code true}:
 * unlabelled jobs join their namespace's queue {@code default}).
 */
public final class WebhookMain {
  private WebhookMain() {}

  public static void main(String[] args) throws InterruptedException {
    WebhookSettings settings =
        WebhookSettings.defaults(env("KOORD4J_NAMESPACE", "koord4j-system"))
            .withQueueing(
                managedNamespaces(System.getenv("KOORD4J_MANAGED_NAMESPACES")),
                Boolean.parseBoolean(env("KOORD4J_NAMESPACE_DEFAULT_QUEUE", "false")));
    int port = Integer.parseInt(env("KOORD4J_WEBHOOK_PORT", "9443"));
    String urlHost = System.getenv("KOORD4J_WEBHOOK_URL_HOST");
    settings = urlHost == null ? settings : settings.withLocalUrl(urlHost, port);

    KubernetesClient client = new KubernetesClientBuilder().build();
    WebhookServer server = WebhookServer.withAllHandlers(client, settings);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  client.close();
                  stopped.countDown();
                }));
    server.start();
    stopped.await();
  }

  private static LabelSelector managedNamespaces(String keyValue) {
    if (keyValue == null || keyValue.isBlank()) {
      return null;
    }
    String[] parts = keyValue.split("=", 2);
    if (parts.length != 2) {
      throw new IllegalArgumentException(
          "KOORD4J_MANAGED_NAMESPACES must be key=value, got " + keyValue);
    }
    return new LabelSelectorBuilder().addToMatchLabels(parts[0].strip(), parts[1].strip()).build();
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
