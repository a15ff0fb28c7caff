package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.testing.Conflicts;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A running job that grows past what its queue admitted, as when the webhook is down (it is not
 * registered here): the manager suspends it, says why, and admits it again for its new size.
 */
class JobChangeIT extends InProcessManagerBase {
  private static final Duration DECISION = Duration.ofMinutes(3);

  @Test
  void aJobThatGrowsAfterAdmissionIsSuspendedAndRequeuedForItsNewSize() {
    try (TestCluster cluster = new TestCluster(client, "it-job-change")) {
      String quota = cluster.quota("team", null, false, "4", "4");
      Job job = cluster.jobOf("grows", quota, 2, "1", "600s", pod -> pod);
      client.resource(new JobBuilder(job).editSpec().withCompletions(8).endSpec().build()).create();
      await().atMost(DECISION).until(() -> cluster.resumed("grows"));

      Conflicts.retrying(() -> client.batch().v1().jobs().inNamespace(cluster.namespace).withName("grows")
          .edit(running -> new JobBuilder(running).editSpec().withParallelism(4).endSpec().build()));

      await().atMost(DECISION)
          .untilAsserted(
              () -> {
                Condition evicted = cluster.condition("grows", QueueUnitConditions.EVICTED);
                assertThat(evicted).isNotNull();
                assertThat(evicted.getReason()).isEqualTo(QueueUnitConditions.REASON_JOB_CHANGED);
                assertThat(evicted.getMessage())
                    .contains("pod set \"main\" from 2 to 4 pods, cpu from 2 to 4");
              });
      await().atMost(DECISION)
          .until(() -> cluster.unit("grows").getSpec().getPodSet().get(0).getCount() == 4
              && cluster.resumed("grows"));
      assertThat(cluster.condition("grows", QueueUnitConditions.ADMITTED).getStatus()).isEqualTo("True");
      // Its gang is as large as it now is: the scheduler waits for all 4 pods, not the 2 it had.
      await().atMost(DECISION).until(() -> client.resources(PodGroup.class).inNamespace(cluster.namespace)
          .withName("grows").get().getSpec().getMinMember() == 4);
    }
  }
}
