package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.testing.Conflicts;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * koord-queue's Intelligent policy, chosen as koord-queue users choose it: with the {@code
 * koord-queue/queue-policy} label and the {@code koord-queue/priority-threshold} annotation on the
 * ElasticQuota, which the quota's Queue takes over, also when they change.
 */
class IntelligentQueueIT extends InProcessManagerBase {
  private static final Duration WAIT = Duration.ofMinutes(2);

  @Test
  void unitsBelowTheThresholdWaitBehindAWaitingUnitAboveItUntilTheQuotaSwitchesToPriority() {
    try (TestCluster cluster = new TestCluster(client, "it-intel")) {
      String quota = cluster.quota("team", null, false, "4", "4");
      editQuota(cluster, quota, q -> {
        q.getMetadata().getLabels().put(WellKnown.QUEUE_POLICY_LABEL, "Intelligent");
        q.getMetadata().getAnnotations().put(WellKnown.PRIORITY_THRESHOLD, "4");
      });
      await().atMost(WAIT).untilAsserted(() -> {
        Queue queue = queue(quota);
        assertThat(queue.getSpec().getQueuePolicy()).isEqualTo("Intelligent");
        assertThat(queue.getMetadata().getAnnotations()).containsEntry(WellKnown.PRIORITY_THRESHOLD, "4");
      });
      String high = cluster.priorityClass("high", 5);
      String low = cluster.priorityClass("low", 1);

      cluster.job("running", quota, 1, "3", 0, "120s");
      await().atMost(WAIT).until(() -> cluster.resumed("running"));
      cluster.job("urgent", quota, "3", high, "5s");
      awaitWaiting(cluster, "urgent", "QuotaShortage");
      cluster.job("small", quota, "1", low, "5s");

      Condition behind = awaitWaiting(cluster, "small", "BehindFirstTier");
      assertThat(behind.getMessage()).contains(cluster.namespace + "/urgent", "Intelligent");
      assertThat(cluster.resumed("small")).isFalse();

      editQuota(cluster, quota, q -> q.getMetadata().getLabels().put(WellKnown.QUEUE_POLICY_LABEL, "Priority"));
      await().atMost(WAIT).until(() -> "Priority".equals(queue(quota).getSpec().getQueuePolicy()));
      await().atMost(WAIT).until(() -> cluster.resumed("small"));
      assertThat(cluster.resumed("urgent")).isFalse();
    }
  }

  private static void editQuota(TestCluster cluster, String quota, Consumer<ElasticQuota> change) {
    Conflicts.retrying(() -> cluster.client.resources(ElasticQuota.class).inNamespace(TestCluster.QUOTA_NAMESPACE)
        .withName(quota).edit(q -> {
          q.getMetadata().setLabels(new HashMap<>(orEmpty(q.getMetadata().getLabels())));
          q.getMetadata().setAnnotations(new HashMap<>(orEmpty(q.getMetadata().getAnnotations())));
          change.accept(q);
          return q;
        }));
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }

  private static Queue queue(String name) {
    return client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE).withName(name).get();
  }

  private static Condition awaitWaiting(TestCluster cluster, String unit, String reason) {
    return await().atMost(WAIT).until(
        () -> cluster.condition(unit, QueueUnitConditions.QUOTA_RESERVED),
        c -> c != null && "False".equals(c.getStatus()) && reason.equals(c.getReason()));
  }
}
