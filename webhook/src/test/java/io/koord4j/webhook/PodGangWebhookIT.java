package io.koord4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.WellKnown;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.gang.PodGroupSpec;
import io.koord4j.jobs.JobAdapters;
import io.koord4j.webhook.admission.FixedQueues;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.koord4j.webhook.http.AdmissionServer;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Pods of a gang job, created by the real Job controller, join the gang through the webhook. */
class PodGangWebhookIT {
  private static final String GANG = "train";

  @RegisterExtension
  final WebhookTestBed bed = new WebhookTestBed("gang-it");
  private final KubernetesClient client = bed.client;
  private final String ownNamespace = bed.ownNamespace;
  private final String jobNamespace = bed.objectNamespace;
  private final SimpleMeterRegistry reviews = new SimpleMeterRegistry();
  private WebhookServer server;

  @BeforeEach
  void setUp() {
    Metrics.addRegistry(reviews);
    String suffix = bed.suffix;
    server = new WebhookServer(client, WebhookServerIT.settings(ownNamespace, "gang-" + suffix),
        JobAdapters.builtIn(), FixedQueues.NONE, List::of,
        PodWebhooks.mutating(bed.startCache().gangs()), List.of());
    bed.start(server);
  }

  @Test
  void podsOfAJobWhoseTemplateJoinsAFormedGangGetTheGangAnnotations() {
    formGangOnceTheWebhookIsCalled();

    client.batch().v1().jobs().inNamespace(jobNamespace).resource(new JobBuilder()
        .withNewMetadata().withName(GANG).endMetadata()
        .withNewSpec().withParallelism(3).withCompletions(3)
        .withNewTemplate()
        .withNewMetadata()
        .addToLabels(WellKnown.POD_GROUP_LABEL, GANG)
        .addToAnnotations(WellKnown.RELATED_QUEUEUNIT, jobNamespace + "/" + GANG)
        .endMetadata()
        .withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("main").withImage("busybox").endContainer()
        .endSpec().endTemplate().endSpec().build()).create();

    List<Pod> pods = await().atMost(Duration.ofSeconds(60)).until(
        () -> client.pods().inNamespace(jobNamespace).withLabel("job-name", GANG).list().getItems(),
        items -> items.size() == 3);
    assertThat(pods).allSatisfy(pod -> {
      assertThat(pod.getMetadata().getLabels()).containsEntry(WellKnown.POD_GROUP_LABEL, GANG);
      assertThat(pod.getMetadata().getAnnotations())
          .containsEntry(WellKnown.GANG_NAME, GANG)
          .containsEntry(WellKnown.GANG_MIN_AVAILABLE, "3")
          .containsEntry(WellKnown.RELATED_QUEUEUNIT, jobNamespace + "/" + GANG);
    });
  }

  @AfterEach
  void forgetReviews() {
    Metrics.removeRegistry(reviews);
  }

  @Test
  void aPodThatCarriesTheGangAnnotationsIsNotSentToTheWebhook() {
    formGangOnceTheWebhookIsCalled();
    long sent = gangReviews();

    Pod member = new PodBuilder(probe()).editMetadata()
        .addToAnnotations(WellKnown.GANG_NAME, GANG)
        .addToAnnotations(WellKnown.GANG_MIN_AVAILABLE, "3").endMetadata().build();
    client.pods().inNamespace(jobNamespace).resource(member).dryRun().create();
    assertThat(gangReviews()).isEqualTo(sent);

    Pod lacksMinAvailable = new PodBuilder(probe()).editMetadata()
        .addToAnnotations(WellKnown.GANG_NAME, GANG).endMetadata().build();
    Pod stored = client.pods().inNamespace(jobNamespace).resource(lacksMinAvailable).dryRun().create();
    // The server counts a review just after it answers: the count may trail the reply briefly.
    await().atMost(Duration.ofSeconds(5)).until(() -> gangReviews() == sent + 1);
    assertThat(stored.getMetadata().getAnnotations()).containsEntry(WellKnown.GANG_MIN_AVAILABLE, "3");
  }

  /**
   * Creates the gang's PodGroup (min 3) and waits until the API server calls the webhook: it fails
   * open, so a pod created sooner would pass unmutated.
   */
  private void formGangOnceTheWebhookIsCalled() {
    createPodGroup(3);
    await().atMost(Duration.ofSeconds(20)).until(() -> client.pods().inNamespace(jobNamespace)
        .resource(probe()).dryRun().create().getMetadata().getAnnotations()
        .containsKey(WellKnown.GANG_NAME));
  }

  private long gangReviews() {
    Timer timer = reviews.find(AdmissionServer.ADMISSION_TIMER).tag("path", "/mutate-pods-gangs").timer();
    return timer == null ? 0 : timer.count();
  }

  private Pod probe() {
    return new PodBuilder()
        .withNewMetadata().withName("probe").withLabels(Map.of(WellKnown.POD_GROUP_LABEL, GANG))
        .withAnnotations(Map.of(WellKnown.RELATED_QUEUEUNIT, jobNamespace + "/" + GANG)).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec()
        .build();
  }

  private void createPodGroup(int minMember) {
    PodGroup group = new PodGroup();
    group.setMetadata(new ObjectMetaBuilder().withName(GANG).withNamespace(jobNamespace).build());
    PodGroupSpec spec = new PodGroupSpec();
    spec.setMinMember(minMember);
    group.setSpec(spec);
    client.resource(group).create();
  }

}
