package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.testing.LocalCluster;
import io.koord4j.webhook.WebhookServer;
import io.koord4j.webhook.WebhookSettings;
import io.koord4j.webhook.registration.WebhookConfigurations;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The webhook holds a queued job that was submitted running; the manager then admits it. */
class WebhookAdmissionIT {
  private static KubernetesClient client;
  private static WebhookServer webhook;
  private static String ownNamespace;

  @BeforeAll
  static void start() throws InterruptedException {
    InProcessManager.ensureRunning();
    client = LocalCluster.client();
    String suffix = Long.toString(System.nanoTime(), 36);
    ownNamespace = "webhook-admission-it-" + suffix;
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ownNamespace)
        .endMetadata().build()).create();
    WebhookSettings settings =
        WebhookSettings.defaults(ownNamespace)
            .withLocalUrl("127.0.0.1", 0)
            .withNames(
                "webhook-admission-it-" + suffix,
                new WebhookConfigurations.Names(
                    "koord4j-it-mutating-" + suffix, "koord4j-it-validating-" + suffix));
    webhook = WebhookServer.withAllHandlers(client, settings);
    webhook.start();
  }

  @AfterAll
  static void stop() {
    if (webhook != null) {
      webhook.close();
      webhook.unregister();
    }
    if (client != null) {
      client.namespaces().withName(ownNamespace).delete();
      client.close();
    }
  }

  @Test
  void aQueuedJobSubmittedRunningIsStoredSuspendedAndStartsWhenAdmitted() {
    try (TestCluster cluster = new TestCluster(client, "it-webhook")) {
      String top = cluster.quota("top", null, true, "4", "4");
      String leaf = cluster.quota("leaf", top, false, "4", "4");

      Job queued = running(cluster.jobOf("queued", leaf, 2, "1", "2s", pod -> pod));
      Job stored = await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
          .until(() -> client.resource(queued).create(), job -> job != null);
      assertThat(stored.getSpec().getSuspend()).as("held by the webhook").isTrue();

      await().atMost(Duration.ofSeconds(60))
          .until(() -> QueueUnitPhase.SUCCEED.equals(cluster.phase("queued")));
      assertThat(cluster.job("queued").getStatus().getSucceeded()).isEqualTo(2);
    }
  }

  @Test
  void aJobThatNamesNoQueueIsLeftAlone() {
    try (TestCluster cluster = new TestCluster(client, "it-webhook-free")) {
      Job free = running(cluster.jobOf("free", "unused", 1, "1", "1s", pod -> pod));
      free.getMetadata().getLabels().remove(WellKnown.QUOTA_NAME);
      Job stored = client.resource(free).create();

      assertThat(stored.getSpec().getSuspend()).as("not held").isFalse();
      await().atMost(Duration.ofSeconds(60))
          .until(() -> Integer.valueOf(1).equals(cluster.job("free").getStatus().getSucceeded()));
      assertThat(cluster.unit("free")).as("no QueueUnit for an unqueued job").isNull();
    }
  }

  private static Job running(Job job) {
    job.getSpec().setSuspend(false);
    return job;
  }
}
