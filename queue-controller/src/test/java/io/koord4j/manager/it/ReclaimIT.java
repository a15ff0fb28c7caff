package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.manager.admission.UnitStatuses;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A three-level quota tree (top, two teams, four leaves): an idle leaf's share is lent to a
 * sibling team and reclaimed when the lender's jobs arrive, while a watcher checks throughout that
 * no quota's usage exceeds its max, counting the borrower's quota until its job has stopped.
 */
class ReclaimIT extends InProcessManagerBase {
  @Test
  void aBorrowerIsPreemptedWhenTheLenderNeedsItsMinBack() {
    try (TestCluster cluster = new TestCluster(client, "it-reclaim")) {
      String top = cluster.quota("top", null, true, "8", "8");
      String teamA = cluster.quota("team-a", top, true, "4", "8");
      String teamB = cluster.quota("team-b", top, true, "4", "8");
      String a1 = cluster.quota("a1", teamA, false, "2", "8");
      cluster.quota("a2", teamA, false, "2", "8");
      String b1 = cluster.quota("b1", teamB, false, "2", "8");
      cluster.quota("b2", teamB, false, "2", "8");
      Map<String, String> parents = Map.of(a1, teamA, b1, teamB, teamA, top, teamB, top);
      Map<String, Long> maxima = Map.of(top, 8000L, teamA, 8000L, teamB, 8000L);
      QuotaUsageWatcher watcher = new QuotaUsageWatcher(client, cluster.namespace, parents, maxima);
      try {
        cluster.job("borrower", a1, 1, "6", 0, "120s");
        await().atMost(Duration.ofSeconds(30))
            .until(() -> QueueUnitPhase.RUNNING.equals(cluster.phase("borrower"))
                || QueueUnitPhase.DEQUEUED.equals(cluster.phase("borrower")));

        cluster.job("lender", b1, 1, "4", 0, "120s");
        await().atMost(Duration.ofSeconds(60))
            .until(() -> Boolean.FALSE.equals(cluster.job("lender").getSpec().getSuspend()));

        QueueUnit borrower = cluster.unit("borrower");
        assertThat(borrower.getStatus().getPhase())
            .isIn(QueueUnitPhase.TIMEOUT_BACKOFF, QueueUnitPhase.ENQUEUED);
        assertThat(borrower.getStatus().getConditions())
            .anySatisfy(
                c -> {
                  assertThat(c.getType()).isEqualTo(QueueUnitConditions.EVICTED);
                  assertThat(c.getReason()).isEqualTo(QueueUnitConditions.REASON_PREEMPTED);
                });
        // The lender started only after the borrower's job had stopped.
        Job stopped = cluster.job("borrower");
        assertThat(stopped.getSpec().getSuspend()).isTrue();
        assertThat(stopped.getStatus().getActive()).isIn(null, 0);
        await().atMost(Duration.ofSeconds(30))
            .until(() -> UnitStatuses.requeues(cluster.unit("borrower").getStatus()) == 1);
      } finally {
        watcher.close();
      }
      assertThat(watcher.violations()).isEmpty();
    }
  }
}
