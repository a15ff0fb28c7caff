package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.testing.Conflicts;
import io.koord4j.testing.LocalCluster;
import io.koord4j.webhook.WebhookServer;
import io.koord4j.webhook.WebhookSettings;
import io.koord4j.webhook.admission.JobMutator;
import io.koord4j.webhook.registration.WebhookConfigurations;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The webhook holds a queued job that was submitted running; the manager then admits it. The
 * webhook runs with the namespace default queue on, as {@code KOORD4J_NAMESPACE_DEFAULT_QUEUE=true}
 * sets it.
 */
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
                    "koord4j-it-mutating-" + suffix, "koord4j-it-validating-" + suffix))
            .withQueueing(null, true);
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

      assertRunsToCompletion(cluster, "queued", 2);
    }
  }

  @Test
  void theApiServerRefusesToGrowARunningQueuedJob() {
    try (TestCluster cluster = new TestCluster(client, "it-webhook-grow")) {
      String quota = cluster.quota("team", null, false, "4", "4");
      Job job = cluster.jobOf("grows", quota, 2, "1", "600s", pod -> pod);
      job.getSpec().setCompletions(8);
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
          .until(() -> client.resource(job).create(), created -> created != null);
      await().atMost(Duration.ofMinutes(3)).until(() -> cluster.resumed("grows"));

      assertThatThrownBy(
              () -> Conflicts.retrying(() -> client.batch().v1().jobs().inNamespace(cluster.namespace).withName("grows")
                  .edit(running -> new JobBuilder(running).editSpec().withParallelism(4).endSpec().build())))
          .isInstanceOf(KubernetesClientException.class)
          .hasMessageContaining("a running job cannot change the size its queue admitted (pod set \"main\" from 2 to 4 pods");
      assertThat(cluster.job("grows").getSpec().getParallelism()).isEqualTo(2);
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

  @Test
  void aJobNamingAMissingQueueWaitsSayingSoAndStartsOnceTheQueueExists() throws Exception {
    try (TestCluster cluster = new TestCluster(client, "it-webhook-late")) {
      String late = cluster.prefix + "-late";
      Job job = running(cluster.jobOf("late", late, 1, "1", "1s", pod -> pod));

      List<String> warnings = await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
          .until(() -> createReturningWarnings(job, cluster.namespace), w -> w != null);

      assertThat(warnings).singleElement().asString().contains(late, "does not exist");
      assertThat(cluster.job("late").getSpec().getSuspend()).as("held by the webhook").isTrue();
      String waiting = "queue \"" + cluster.namespace + "/" + late + "\" does not exist";
      Condition reserved = await().atMost(Duration.ofSeconds(30)).until(
          () -> cluster.condition("late", QueueUnitConditions.QUOTA_RESERVED),
          c -> c != null && "UnknownQueue".equals(c.getReason()));
      assertThat(reserved.getStatus()).isEqualTo("False");
      assertThat(reserved.getMessage()).isEqualTo(waiting);
      await().atMost(Duration.ofSeconds(30)).untilAsserted(
          () -> assertThat(eventsOf(cluster.namespace, "late")).contains(waiting));
      assertThat(cluster.resumed("late")).isFalse();

      cluster.queue("late", null);
      cluster.quota("late", null, false, "2", "2");

      assertRunsToCompletion(cluster, "late", 1);
    }
  }

  @Test
  void anUnlabelledJobJoinsTheQueueNamedDefaultInItsNamespace() {
    try (TestCluster cluster = new TestCluster(client, "it-webhook-default")) {
      cluster.namespaceQuota("2");
      Queue queue = new Queue();
      queue.setMetadata(new ObjectMetaBuilder().withName(JobMutator.DEFAULT_QUEUE)
          .withNamespace(cluster.namespace).build());
      queue.setSpec(new QueueSpec());
      client.resource(queue).create();
      Job unlabelled = running(cluster.jobOf("unlabelled", "unused", 1, "1", "1s", pod -> pod));
      unlabelled.getMetadata().getLabels().remove(WellKnown.QUOTA_NAME);
      // That webhook fails open: wait until the API server calls it and its cache has the queue.
      await().atMost(Duration.ofSeconds(30)).until(
          () -> Boolean.TRUE.equals(client.resource(unlabelled).dryRun().create().getSpec().getSuspend()));

      Job stored = client.resource(unlabelled).create();

      assertThat(stored.getSpec().getSuspend()).as("held by the webhook").isTrue();
      assertThat(stored.getMetadata().getLabels())
          .containsEntry(WellKnown.KUEUE_QUEUE_NAME, JobMutator.DEFAULT_QUEUE);
      // Admitted is where koord4j's part ends: a Kueue running on the same cluster also holds
      // jobs that carry the Kueue label this convention adds, so their pods may never start.
      Condition admitted = await().atMost(Duration.ofSeconds(60)).until(
          () -> cluster.condition("unlabelled", QueueUnitConditions.ADMITTED),
          c -> c != null && "True".equals(c.getStatus()));
      assertThat(admitted.getMessage()).contains(cluster.namespace);
      assertThat(cluster.unit("unlabelled").getSpec().getQueue()).isEqualTo(JobMutator.DEFAULT_QUEUE);
    }
  }

  /** Waits until the job's unit has finished, then checks that every pod of the job succeeded. */
  private static void assertRunsToCompletion(TestCluster cluster, String job, int pods) {
    await().atMost(Duration.ofSeconds(60))
        .until(() -> QueueUnitPhase.SUCCEED.equals(cluster.phase(job)));
    assertThat(cluster.job(job).getStatus().getSucceeded()).isEqualTo(pods);
  }

  /** Creates the job as kubectl does, returning the warnings the API server sends back. */
  private static List<String> createReturningWarnings(Job job, String namespace) throws Exception {
    HttpClient http = client.getHttpClient();
    URL url = new URL(client.getMasterUrl(), "apis/batch/v1/namespaces/" + namespace + "/jobs");
    HttpResponse<String> response = http.sendAsync(
            http.newHttpRequestBuilder().uri(url.toString())
                .post("application/json", Serialization.asJson(job)).build(),
            String.class)
        .get(30, TimeUnit.SECONDS);
    assertThat(response.code()).as(response.body()).isEqualTo(201);
    return response.headers("Warning");
  }

  private static List<String> eventsOf(String namespace, String name) {
    return client.v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(event -> name.equals(event.getInvolvedObject().getName()))
        .map(Event::getMessage)
        .toList();
  }

  private static Job running(Job job) {
    job.getSpec().setSuspend(false);
    return job;
  }
}
