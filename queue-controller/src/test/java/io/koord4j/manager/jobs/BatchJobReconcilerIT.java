package io.koord4j.manager.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.manager.admission.UnitStatuses;
import io.koord4j.manager.it.InProcessManager;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import io.koord4j.testing.Conflicts;
import io.koord4j.testing.LocalCluster;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The batch Job reconciler alone, run by JOSDK's test extension against the local cluster in a
 * namespace of its own; the test stands in for the admission loop by writing the unit's status.
 */
class BatchJobReconcilerIT {
  private static final Duration WAIT = Duration.ofMinutes(2);
  private static final KubernetesClient CLIENT = LocalCluster.client();
  private static final SharedInformers INFORMERS = new SharedInformers(CLIENT);

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      LocallyRunOperatorExtension.builder()
          .withKubernetesClient(CLIENT)
          // The client outlives each test's operator: the shared informers and the clean-up use it.
          .withConfigurationService(overrider -> overrider.withCloseClientOnStop(false))
          .withReconciler(new JobIntegrations.BatchJobs(Clock.systemUTC(), INFORMERS))
          .build();

  @BeforeAll
  static void onlyThisReconcilerQueuesJobs() {
    // A manager earlier tests of this JVM started would reconcile the same jobs.
    InProcessManager.stop();
    LocalCluster.ensureCrds(CLIENT, HasMetadata.getFullResourceName(QueueUnit.class));
  }

  @AfterAll
  static void closeInformers() {
    INFORMERS.close();
    CLIENT.close();
  }

  @Test
  void aQueuedJobIsHeldWithAUnitOfItsDemandAndStartsOnceTheUnitIsAdmitted() {
    OPERATOR.create(queuedJob("train", "research", "1500m"));

    QueueUnit unit = await().atMost(WAIT).until(() -> OPERATOR.get(QueueUnit.class, "train"), Objects::nonNull);
    assertThat(unit.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
      assertThat(owner.getKind()).isEqualTo("Job");
      assertThat(owner.getName()).isEqualTo("train");
      assertThat(owner.getController()).isTrue();
    });
    assertThat(unit.getSpec().getQueue()).isEqualTo("research");
    assertThat(unit.getSpec().getPodSet()).singleElement().satisfies(podSet -> assertThat(podSet.getCount()).isEqualTo(1));
    assertThat(ResourceQuantities.toVector(unit.getSpec().getResource())).isEqualTo(ResourceVector.of("cpu", 1500));
    Job held = OPERATOR.get(Job.class, "train");
    assertThat(held.getSpec().getSuspend()).isTrue();
    assertThat(held.getMetadata().getAnnotations()).containsEntry(WellKnown.JOB_HAS_ENQUEUED, "true");

    Conflicts.retrying(() -> OPERATOR.getKubernetesClient().resources(QueueUnit.class)
        .inNamespace(unit.getMetadata().getNamespace()).withName(unit.getMetadata().getName()).editStatus(current -> {
      current.setStatus(UnitStatuses.admitted(current, "research", Instant.now()));
      return current;
    }));

    Job started = await().atMost(WAIT).until(() -> OPERATOR.get(Job.class, "train"),
        job -> Boolean.FALSE.equals(job.getSpec().getSuspend()));
    assertThat(started.getMetadata().getAnnotations()).containsKey(WellKnown.JOB_DEQUEUE_TIMESTAMP);
  }

  private Job queuedJob(String name, String queue, String cpu) {
    return new JobBuilder()
        .withNewMetadata().withName(name).withNamespace(OPERATOR.getNamespace())
        .addToLabels(WellKnown.KUEUE_QUEUE_NAME, queue).endMetadata()
        .withNewSpec().withSuspend(true).withParallelism(1).withCompletions(1)
        .withNewTemplate().withNewSpec().withRestartPolicy("Never")
        .addNewContainer().withName("work").withImage("busybox")
        .withNewResources().addToRequests("cpu", new Quantity(cpu)).endResources().endContainer()
        .endSpec().endTemplate().endSpec().build();
  }
}
