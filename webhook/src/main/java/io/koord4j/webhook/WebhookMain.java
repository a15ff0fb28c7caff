package io.koord4j.webhook;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.probes.NativeTlsClientFactory;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the webhook alone, with the cluster from KUBECONFIG (or the in-cluster account), configured
 * by the environment as {@link WebhookSettings#fromEnvironment} says.
 */
public final class WebhookMain {
  private WebhookMain() {}

  public static void main(String[] args) throws InterruptedException {
    WebhookSettings settings = WebhookSettings.fromEnvironment(System.getenv());
    KubernetesClient client = NativeTlsClientFactory.client();
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
}
