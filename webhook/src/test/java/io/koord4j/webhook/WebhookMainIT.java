package io.koord4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.testing.JavaProcess;
import io.koord4j.testing.LocalCluster;
import io.koord4j.webhook.registration.WebhookConfigurations;
import io.koord4j.webhook.registration.WebhookRegistrar;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The webhook alone in a JVM of its own, configured by its environment, as a deployment runs it. */
class WebhookMainIT {
  @RegisterExtension
  final WebhookTestBed bed = new WebhookTestBed("webhook-main-it");
  private final KubernetesClient client = bed.client;
  private final WebhookConfigurations.Names names =
      WebhookConfigurations.Names.prefixed("koord4j-main-it-" + bed.suffix);
  private final HttpClient http = HttpClient.newHttpClient();
  private JavaProcess webhook;

  @AfterEach
  void stopTheWebhook() throws InterruptedException {
    if (webhook != null) {
      webhook.stop();
    }
    new WebhookRegistrar(client).delete(names);
  }

  @Test
  void servesQueuedJobsAndReportsReadinessAndItsTimingsOnTheProbePort() throws IOException, InterruptedException {
    LocalCluster.ensureAllCrds(client);
    int probePort = JavaProcess.freePort();
    webhook =
        JavaProcess.start(
            WebhookMain.class.getName(),
            List.of("-Xmx256m"),
            Map.of(
                "KOORD4J_NAMESPACE", bed.ownNamespace,
                "KOORD4J_WEBHOOK_URL_HOST", "127.0.0.1",
                "KOORD4J_WEBHOOK_PORT", Integer.toString(JavaProcess.freePort()),
                "KOORD4J_WEBHOOK_CONFIGURATION_PREFIX", "koord4j-main-it-" + bed.suffix,
                "KOORD4J_HTTP_PORT", Integer.toString(probePort)),
            Path.of("target", "it-logs", "webhook-main-" + bed.suffix + ".log"));
    createQueue("gpu");

    await("/readyz answers 200 once the webhook serves; " + webhook)
        .atMost(Duration.ofSeconds(90))
        .ignoreExceptionsInstanceOf(ConnectException.class)
        .until(() -> webhook.isAlive() && get(probePort, "/readyz").statusCode() == 200);
    Job queued =
        await("a queued Job is stored suspended; " + webhook)
            .atMost(Duration.ofSeconds(30))
            .until(() -> createQueuedJob("gpu"), job -> Boolean.TRUE.equals(job.getSpec().getSuspend()));

    assertThat(queued.getMetadata().getLabels()).containsEntry(WellKnown.KUEUE_QUEUE_NAME, "gpu");
    assertThat(client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(names.mutating()).get())
        .as("the configuration named by KOORD4J_WEBHOOK_CONFIGURATION_PREFIX")
        .isNotNull();
    String metrics = get(probePort, "/metrics").body();
    Matcher reviews =
        Pattern.compile("koord4j_webhook_admission_seconds_count\\{path=\"" + WebhookConfigurations.JOBS_PATH
                + "\"} (\\S+)").matcher(metrics);
    assertThat(reviews.find()).as("the job path's timer in /metrics").isTrue();
    assertThat(Double.parseDouble(reviews.group(1))).as("job reviews timed").isGreaterThanOrEqualTo(1);
    assertThat(metrics).contains("koord4j_webhook_connections_total");
  }

  private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private void createQueue(String name) {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(bed.objectNamespace).build());
    queue.setSpec(new QueueSpec());
    client.resource(queue).create();
  }

  /** A dry run: what the API server would store, after the webhooks. */
  private Job createQueuedJob(String queue) {
    return client.batch().v1().jobs().inNamespace(bed.objectNamespace)
        .resource(WebhookServerIT.job("queued", Map.of(WellKnown.KUEUE_QUEUE_NAME, queue)))
        .dryRun()
        .create();
  }
}
