package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.manager.admission.ResourceQuantities;
import io.koord4j.testing.LocalCluster;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A three-level quota tree (top, two teams, four leaves): an idle leaf's share is lent to a
 * sibling team and reclaimed when the lender's jobs arrive, while a watcher checks throughout that
 * no quota's admitted usage exceeds its max.
 */
class ReclaimIT {
  private static KubernetesClient client;

  @BeforeAll
  static void start() throws InterruptedException {
    InProcessManager.ensureRunning();
    client = LocalCluster.client();
  }

  @AfterAll
  static void closeClient() {
    client.close();
  }

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
      List<String> violations = new CopyOnWriteArrayList<>();
      ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
      watcher.scheduleWithFixedDelay(
          () -> violations.addAll(overMax(cluster, parents, Map.of(top, 8000L, teamA, 8000L, teamB, 8000L))),
          0, 100, TimeUnit.MILLISECONDS);
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
        await().atMost(Duration.ofSeconds(30))
            .until(() -> Boolean.TRUE.equals(cluster.job("borrower").getSpec().getSuspend()));
      } finally {
        watcher.shutdownNow();
      }
      assertThat(violations).isEmpty();
    }
  }

  /** Quotas whose admitted units (Dequeued or Running) ask more CPU than the quota's max. */
  private static List<String> overMax(
      TestCluster cluster, Map<String, String> parents, Map<String, Long> maxima) {
    Map<String, Long> used = new HashMap<>();
    for (QueueUnit unit :
        cluster.client.resources(QueueUnit.class).inNamespace(cluster.namespace).list().getItems()) {
      String phase = unit.getStatus() == null ? null : unit.getStatus().getPhase();
      if (QueueUnitPhase.DEQUEUED.equals(phase) || QueueUnitPhase.RUNNING.equals(phase)) {
        long cpu = ResourceQuantities.toVector(unit.getSpec().getResource()).get("cpu");
        for (String quota = unit.getSpec().getQueue(); quota != null; quota = parents.get(quota)) {
          used.merge(quota, cpu, Long::sum);
        }
      }
    }
    return maxima.entrySet().stream()
        .filter(max -> used.getOrDefault(max.getKey(), 0L) > max.getValue())
        .map(max -> max.getKey() + " uses " + used.get(max.getKey()) + "m > max " + max.getValue() + "m")
        .toList();
  }
}
