package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueItemDetail;
import io.koord4j.api.queue.QueueStatus;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.manager.admission.QueueItems;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Queue policies as koord-queue defines them, on a 4-CPU quota whose Queue is created first with
 * the policy: a Block queue holds later units behind a head that does not fit, a Priority queue
 * lets them pass, and higher-priority units go first.
 */
class QueuePolicyIT extends InProcessManagerBase {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void aBlockQueueHoldsLaterUnitsOfTheQuotaUntilTheHeadFits() {
    try (TestCluster cluster = new TestCluster(client, "it-block")) {
      String quota = smallAfterBigWaitingForQuota(cluster, "Block", "20s");

      Condition blocked = awaitWaiting(cluster, "small", "BlockedBehind");

      assertThat(blocked.getMessage()).contains(cluster.namespace + "/big");
      assertThat(cluster.resumed("small")).isFalse();
      await()
          .atMost(WAIT)
          .untilAsserted(
              () -> assertThat(waitingIn(cluster, quota)).containsSubsequence("big", "small"));
      assertThat(cluster.quota(quota).getMetadata().getAnnotations())
          .hasEntrySatisfying(WellKnown.QUOTA_RUNTIME, runtime -> assertThat(runtime).contains("cpu"));
      await().atMost(WAIT).until(() -> cluster.resumed("big") && cluster.resumed("small"));
      // Admitted in the same pass at the earliest; the two jobs are then started side by side.
      assertThat(admittedAt(cluster, "small")).isAfterOrEqualTo(admittedAt(cluster, "big"));
    }
  }

  @Test
  void aPriorityQueueLetsLaterUnitsPassAHeadThatDoesNotFit() {
    try (TestCluster cluster = new TestCluster(client, "it-prio")) {
      smallAfterBigWaitingForQuota(cluster, "Priority", "30s");

      await().atMost(WAIT).until(() -> cluster.resumed("small"));

      assertThat(cluster.resumed("big")).isFalse();
      assertThat(cluster.resumed("running")).isTrue();
    }
  }

  @Test
  void higherPriorityUnitsAreAdmittedFirst() {
    try (TestCluster cluster = new TestCluster(client, "it-order")) {
      String quota = quotaWithQueue(cluster, "Priority");
      String low = cluster.priorityClass("low", 10);
      String high = cluster.priorityClass("high", 1000);
      cluster.job("blocker", quota, 1, "4", 0, "15s");
      await().atMost(WAIT).until(() -> cluster.resumed("blocker"));
      cluster.job("low", quota, "4", low, "5s");
      awaitWaiting(cluster, "low", "QuotaShortage");
      cluster.job("high", quota, "4", high, "5s");
      awaitWaiting(cluster, "high", "QuotaShortage");
      assertThat(cluster.unit("high").getSpec().getPriority()).isEqualTo(1000);

      await().atMost(WAIT).until(() -> cluster.resumed("high"));

      assertThat(cluster.resumed("low")).isFalse();
      await().atMost(WAIT).until(() -> cluster.resumed("low"));
    }
  }

  @Test
  void aLongQueueListsItsHeadAndCountsEveryWaitingUnit() {
    try (TestCluster cluster = new TestCluster(client, "it-long")) {
      String quota = quotaWithQueue(cluster, "Priority");
      int waiting = QueueItems.LIMIT + 20;
      for (int i = 0; i < waiting; i++) {
        cluster.unit(String.format("unit-%03d", i), quota, "8");
      }

      await()
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(pendingMetric(quota)).isEqualTo(waiting));

      await()
          .atMost(WAIT)
          .untilAsserted(() -> assertThat(waitingIn(cluster, quota)).hasSize(QueueItems.LIMIT));
    }
  }

  /**
   * In a 4-CPU quota whose queue has {@code policy}: job running (3 CPUs) runs for {@code
   * runningFor}, job big (3) waits for quota, then job small (1) is queued.
   */
  private static String smallAfterBigWaitingForQuota(TestCluster cluster, String policy, String runningFor) {
    String quota = quotaWithQueue(cluster, policy);
    cluster.job("running", quota, 1, "3", 0, runningFor);
    await().atMost(WAIT).until(() -> cluster.resumed("running"));
    cluster.job("big", quota, 1, "3", 0, "2s");
    awaitWaiting(cluster, "big", "QuotaShortage");
    cluster.job("small", quota, 1, "1", 0, "2s");
    return quota;
  }

  /** A 4-CPU top-level quota served by a Queue of the given policy. */
  private static String quotaWithQueue(TestCluster cluster, String policy) {
    cluster.queue("team", policy);
    return cluster.quota("team", null, false, "4", "4");
  }

  private static Condition awaitWaiting(TestCluster cluster, String unit, String reason) {
    return await()
        .atMost(WAIT)
        .until(
            () -> cluster.condition(unit, QueueUnitConditions.QUOTA_RESERVED),
            c -> c != null && "False".equals(c.getStatus()) && reason.equals(c.getReason()));
  }

  /** The units the Queue's status lists as waiting, active first, each list by position. */
  private static List<String> waitingIn(TestCluster cluster, String queue) {
    QueueStatus status =
        cluster.client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE).withName(queue).get()
            .getStatus();
    if (status == null || status.getQueueItemDetails() == null) {
      return List.of();
    }
    return Stream.of(QueueStatus.ACTIVE, QueueStatus.BACKOFF)
        .flatMap(list -> status.getQueueItemDetails().getOrDefault(list, List.of()).stream())
        .map(QueueItemDetail::getName)
        .toList();
  }

  /** The manager's {@code koord4j_queue_units} of the queue's pending units. */
  private static double pendingMetric(String queue) {
    Gauge gauge = InProcessManager.registry()
        .find("koord4j.queue.units")
        .tags("namespace", Queue.DEFAULT_NAMESPACE, "queue", queue, "state", "pending")
        .gauge();
    return gauge == null ? -1 : gauge.value();
  }

  /** When the admission loop admitted the job's unit. */
  private static Instant admittedAt(TestCluster cluster, String job) {
    return Instant.parse(cluster.unit(job).getStatus().getLastAllocateTime());
  }
}
