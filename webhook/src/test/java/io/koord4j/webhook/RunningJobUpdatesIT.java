package io.koord4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.koord4j.api.WellKnown;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.webhook.admission.FixedQueues;
import io.koord4j.webhook.http.AdmissionServer;
import io.koord4j.webhook.registration.WebhookConfigurations;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The API server sends a queued job's update to the webhook only while the job runs before and
 * after it: the manager's resume and a suspension are stored without a call.
 */
class RunningJobUpdatesIT {
  @RegisterExtension
  final WebhookTestBed bed = new WebhookTestBed("updates-it");
  private final KubernetesClient client = bed.client;
  private final String jobNamespace = bed.objectNamespace;
  private final SimpleMeterRegistry reviews = new SimpleMeterRegistry();
  private String name;

  @BeforeEach
  void setUp() {
    Metrics.addRegistry(reviews);
    bed.start(new WebhookServer(client, WebhookServerIT.settings(bed.ownNamespace, "updates-" + bed.suffix),
        JobAdapters.builtIn(), FixedQueues.in(jobNamespace, "gpu"), List.of(), List.of()));
  }

  @AfterEach
  void forgetReviews() {
    Metrics.removeRegistry(reviews);
  }

  @Test
  void onlyUpdatesOfARunningQueuedJobReachTheWebhook() {
    // Jobs created before the API server loads the configuration are not held; each try has a name of its own.
    Job held = await().atMost(Duration.ofSeconds(20)).until(
        () -> client.batch().v1().jobs().inNamespace(jobNamespace).resource(WebhookServerIT.job(
            "train-" + UUID.randomUUID().toString().substring(0, 5), Map.of(WellKnown.KUEUE_QUEUE_NAME, "gpu"))).create(),
        job -> Boolean.TRUE.equals(job.getSpec().getSuspend()));
    // The server counts a review just after it answers: the count may trail the reply briefly.
    await().atMost(Duration.ofSeconds(5)).until(() -> jobReviews() == 1);
    name = held.getMetadata().getName();

    Job resumed = patch("{\"spec\":{\"suspend\":false}}");
    assertThat(resumed.getSpec().getSuspend()).isFalse();

    String otherQueue = "{\"metadata\":{\"labels\":{\"" + WellKnown.KUEUE_QUEUE_NAME + "\":\"cpu\"}}";
    assertThatThrownBy(() -> patch(otherQueue + "}"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e ->
            assertThat(e.getMessage()).contains("the queue of a running job cannot change"));
    // Only the refused update was sent: had the resume been too, the count would pass 2.
    await().atMost(Duration.ofSeconds(5)).until(() -> jobReviews() >= 2);

    Job suspendedElsewhere = patch(otherQueue + ",\"spec\":{\"suspend\":true}}");
    assertThat(suspendedElsewhere.getMetadata().getLabels()).containsEntry(WellKnown.KUEUE_QUEUE_NAME, "cpu");
    await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> jobReviews() == 2);
  }

  /** A merge patch, which the API server admits as an update, without the job's resourceVersion. */
  private Job patch(String mergePatch) {
    return client.batch().v1().jobs().inNamespace(jobNamespace).withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
  }

  private long jobReviews() {
    Timer timer = reviews.find(AdmissionServer.ADMISSION_TIMER)
        .tag("path", WebhookConfigurations.JOBS_PATH).timer();
    return timer == null ? 0 : timer.count();
  }
}
