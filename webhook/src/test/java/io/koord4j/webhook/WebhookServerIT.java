package io.koord4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.webhook.admission.FixedQueues;
import io.koord4j.webhook.registration.WebhookConfigurations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The webhook against the real API server, registered with a URL on 127.0.0.1. */
class WebhookServerIT {
  @RegisterExtension
  final WebhookTestBed bed = new WebhookTestBed("webhook-it");
  private final KubernetesClient client = bed.client;
  private final String ownNamespace = bed.ownNamespace;
  private final String jobNamespace = bed.objectNamespace;
  private WebhookServer server;

  static WebhookSettings settings(String ownNamespace, String suffix) {
    return WebhookSettings.defaults(ownNamespace)
        .withLocalUrl("127.0.0.1", 0)
        .withNames("webhook-it-tls", new WebhookConfigurations.Names(
            "koord4j-it-mutating-" + suffix, "koord4j-it-validating-" + suffix));
  }

  @Test
  void queuedJobsAreStoredSuspendedAndStoppedServerRefusesOnlyThem() {
    server = new WebhookServer(client, settings(ownNamespace, jobNamespace), JobAdapters.builtIn(),
        FixedQueues.in(jobNamespace, "gpu"), List::of, List.of(), List.of());
    bed.start(server);

    MutatingWebhookConfiguration config = client.admissionRegistration().v1()
        .mutatingWebhookConfigurations().withName("koord4j-it-mutating-" + jobNamespace).get();
    assertThat(config.getWebhooks()).allSatisfy(webhook -> {
      assertThat(webhook.getClientConfig().getUrl())
          .startsWith("https://127.0.0.1:" + server.port() + "/");
      assertThat(webhook.getClientConfig().getCaBundle()).isNotBlank();
    });

    Job queued = await().atMost(Duration.ofSeconds(20)).until(
        () -> createJob("queued-" + UUID.randomUUID().toString().substring(0, 5),
            Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu")),
        job -> Boolean.TRUE.equals(job.getSpec().getSuspend()));
    assertThat(queued.getMetadata().getLabels()).containsEntry(WellKnown.KUEUE_QUEUE_NAME, "gpu");
    Job plain = createJob("plain", Map.of("app", "x"));
    assertThat(plain.getSpec().getSuspend()).isNotEqualTo(Boolean.TRUE);

    server.close();

    assertThat(createJob("plain-while-down", Map.of()).getMetadata().getUid()).isNotBlank();
    assertThatThrownBy(() -> createJob("queued-while-down", Map.of(WellKnown.QUOTA_NAME, "team")))
        .isInstanceOfSatisfying(KubernetesClientException.class, e ->
            assertThat(e.getMessage()).contains("failed calling webhook", "quota-name.jobs.koord4j.io"));
  }

  private Job createJob(String name, Map<String, String> labels) {
    return client.batch().v1().jobs().inNamespace(jobNamespace).resource(job(name, labels)).create();
  }

  static Job job(String name, Map<String, String> labels) {
    return new JobBuilder()
        .withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .withNewSpec().withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("main").withImage("busybox").endContainer()
        .endSpec().endTemplate().endSpec().build();
  }

}
