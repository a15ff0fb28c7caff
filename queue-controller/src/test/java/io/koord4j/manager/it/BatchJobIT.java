package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.koord4j.api.WellKnown;
import io.koord4j.api.gang.PodGroup;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A queued batch Job from submission to completion, and one that can never fit. */
class BatchJobIT extends InProcessManagerBase {
  @Test
  void aQueuedJobGetsAUnitStartsAsAGangAndReleasesItsQuotaWhenDone() {
    try (TestCluster cluster = new TestCluster(client, "it-job")) {
      String top = cluster.quota("top", null, true, "8", "8");
      String leaf = cluster.quota("leaf", top, false, "8", "8");
      cluster.job("train", leaf, 2, "1500m", 0);

      QueueUnit unit = await().atMost(Duration.ofSeconds(30)).until(() -> cluster.unit("train"), u -> u != null);
      assertThat(unit.getSpec().getQueue()).isEqualTo(leaf);
      assertThat(unit.getSpec().getConsumerRef().getKind()).isEqualTo("Job");
      assertThat(unit.getMetadata().getOwnerReferences()).singleElement()
          .satisfies(owner -> assertThat(owner.getName()).isEqualTo("train"));
      assertThat(unit.getSpec().getPodSet()).singleElement()
          .satisfies(podSet -> {
            assertThat(podSet.getName()).isEqualTo("main");
            assertThat(podSet.getCount()).isEqualTo(2);
          });
      assertThat(unit.getSpec().getResource())
          .containsEntry("cpu", new Quantity("3"))
          .containsEntry("memory", new Quantity("2147483648"));

      await().atMost(Duration.ofSeconds(30))
          .until(() -> Boolean.FALSE.equals(cluster.job("train").getSpec().getSuspend()));
      Job started = cluster.job("train");
      assertThat(started.getSpec().getTemplate().getMetadata().getLabels())
          .containsEntry(WellKnown.POD_GROUP_LABEL, "train");
      assertThat(started.getMetadata().getAnnotations())
          .containsKeys(WellKnown.JOB_ENQUEUE_TIMESTAMP, WellKnown.JOB_DEQUEUE_TIMESTAMP)
          .containsEntry(WellKnown.JOB_HAS_ENQUEUED, "true");
      PodGroup group =
          client.resources(PodGroup.class).inNamespace(cluster.namespace).withName("train").get();
      assertThat(group.getSpec().getMinMember()).isEqualTo(2);
      assertThat(cluster.unit("train").getStatus().getConditions())
          .extracting(Condition::getType, Condition::getStatus)
          .contains(
              org.assertj.core.groups.Tuple.tuple(QueueUnitConditions.QUOTA_RESERVED, "True"),
              org.assertj.core.groups.Tuple.tuple(QueueUnitConditions.ADMITTED, "True"));

      await().atMost(Duration.ofSeconds(60))
          .until(() -> QueueUnitPhase.SUCCEED.equals(cluster.phase("train")));
      await().atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(cluster.quota(leaf).getStatus().getUsed())
                      .containsEntry("cpu", new Quantity("0")));
    }
  }

  @Test
  void aJobLargerThanItsQuotaMaxWaitsAndSaysWhy() {
    try (TestCluster cluster = new TestCluster(client, "it-big")) {
      String top = cluster.quota("top", null, true, "2", "2");
      String leaf = cluster.quota("leaf", top, false, "2", "2");
      cluster.job("huge", leaf, 4, "1", 0);

      // The unit may first wait for its quota's Queue, which the manager creates meanwhile.
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                QueueUnit unit = cluster.unit("huge");
                assertThat(unit).isNotNull();
                assertThat(unit.getStatus()).isNotNull();
                assertThat(unit.getStatus().getConditions()).isNotNull();
                Condition reserved = unit.getStatus().getConditions().stream()
                    .filter(c -> c.getType().equals(QueueUnitConditions.QUOTA_RESERVED))
                    .findFirst()
                    .orElseThrow();
                assertThat(cluster.phase("huge")).isEqualTo(QueueUnitPhase.ENQUEUED);
                assertThat(reserved.getStatus()).isEqualTo("False");
                assertThat(reserved.getMessage()).contains(leaf, "cpu", "4 requested", "has 2 of cpu available");
              });
      assertThat(cluster.job("huge").getSpec().getSuspend()).isTrue();
      // Its gang waits with it, so that the resume after an admission is one write.
      PodGroup group =
          client.resources(PodGroup.class).inNamespace(cluster.namespace).withName("huge").get();
      assertThat(group.getSpec().getMinMember()).isEqualTo(4);
      assertThat(group.getMetadata().getOwnerReferences()).singleElement()
          .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(cluster.job("huge").getMetadata().getUid()));
    }
  }
}
