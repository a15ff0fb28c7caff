package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.api.queue.QueueUnitStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Wait for pods ready on a 2-CPU quota whose queue gives pods 5 s, requeues after 2 s doubling,
 * and deactivates after 2 requeues: a gang of two pods whose claim does not exist (the scheduler
 * never places them, so they never become ready) is evicted after 5 s and its quota goes to the
 * next job, whose pods get ready and run past the timeout; the gang is requeued after 2 s, then
 * 4 s, and on its third timeout deactivated.
 */
class WaitForPodsReadyIT extends InProcessManagerBase {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final Duration WAIT = Duration.ofMinutes(3);

  /** One look at the stuck unit. */
  private record Seen(
      Instant at, String phase, boolean active, String admittedAt, Integer requeues, String requeueAt,
      String evicted) {}

  @Test
  void aGangThatNeverGetsReadyIsEvictedRequeuedWithGrowingDelaysThenDeactivated() {
    try (TestCluster cluster = new TestCluster(client, "it-podsready")) {
      cluster.queueWithArgs("team", """
          waitForPodsReadyTimeoutSeconds: 5
          requeuingBackoffBaseSeconds: 2
          requeuingBackoffMaxSeconds: 60
          requeuingBackoffLimitCount: 2
          """);
      String quota = cluster.quota("team", null, false, "2", "2");
      client.resource(cluster.jobOf("stuck", quota, 2, "1", "3s", pod -> pod.addNewVolume()
          .withName("data").withNewPersistentVolumeClaim().withClaimName("never-created").endPersistentVolumeClaim()
          .endVolume())).create();
      await().atMost(WAIT).until(() -> cluster.resumed("stuck"));
      cluster.job("next", quota, 2, "1", 0, "8s");

      List<Seen> timeline = watchUntilDeactivated(cluster, "stuck");
      timeline.forEach(seen -> System.out.println("[timeline] " + seen));

      Map<String, Seen> evictions = evictions(timeline);
      assertThat(evictions).as("the first two timeouts requeue").hasSize(2);
      List<Duration> delays = evictions.values().stream()
          .map(e -> Duration.between(Instant.parse(e.admittedAt()).plus(TIMEOUT), Instant.parse(e.requeueAt())))
          .toList();
      assertThat(delays.get(0)).isBetween(Duration.ofSeconds(2), Duration.ofMillis(3_900));
      assertThat(delays.get(1)).isBetween(Duration.ofSeconds(4), Duration.ofMillis(5_900));
      List<Instant> admissions = admissions(timeline);
      assertThat(admissions).as("admitted three times, each after its backoff").hasSize(3);
      List<String> requeueAts = evictions.values().stream().map(Seen::requeueAt).toList();
      assertThat(admissions.get(1)).isAfterOrEqualTo(Instant.parse(requeueAts.get(0)));
      assertThat(admissions.get(2)).isAfterOrEqualTo(Instant.parse(requeueAts.get(1)));

      QueueUnit next = cluster.unit("next");
      assertThat(Instant.parse(next.getStatus().getLastAllocateTime()))
          .as("the next job got the quota the stuck one released")
          .isAfter(admissions.get(0).plus(TIMEOUT))
          .isBefore(admissions.get(1));
      await().atMost(WAIT).until(() -> QueueUnitPhase.SUCCEED.equals(cluster.phase("next")));
      assertThat(cluster.condition("next", QueueUnitConditions.PODS_READY).getStatus())
          .as("a gang that got ready keeps its admission past the timeout").isEqualTo("True");
      assertThat(cluster.condition("next", QueueUnitConditions.EVICTED)).isNull();

      QueueUnit stuck = cluster.unit("stuck");
      assertThat(stuck.getSpec().isActive()).isFalse();
      assertThat(cluster.condition("stuck", QueueUnitConditions.EVICTED))
          .extracting(Condition::getReason, Condition::getMessage)
          .containsExactly(QueueUnitConditions.REASON_DEACTIVATED,
              "deactivated: its pods were not all ready within 5 s of admission after 2 requeues, the limit");
      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(cluster.condition("stuck", QueueUnitConditions.QUOTA_RESERVED).getStatus()).isEqualTo("False");
        assertThat(cluster.quota(quota).getStatus().getUsed()).containsEntry("cpu", new Quantity("0"));
      });
      assertThat(cluster.job("stuck").getSpec().getSuspend()).isTrue();
      assertThat(eventReasons(cluster, "stuck"))
          .containsSubsequence("PodsReadyTimeout", "PodsReadyTimeout", QueueUnitConditions.REASON_DEACTIVATED);
    }
  }

  /** The unit as polled every 200 ms until it is deactivated, each change once. */
  private static List<Seen> watchUntilDeactivated(TestCluster cluster, String name) {
    List<Seen> timeline = new ArrayList<>();
    await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
      Seen seen = look(cluster.unit(name));
      Seen last = timeline.isEmpty() ? null : timeline.get(timeline.size() - 1);
      if (last == null || !sameButTime(last, seen)) {
        timeline.add(seen);
      }
      return !seen.active() && QueueUnitConditions.REASON_DEACTIVATED.equals(seen.evicted());
    });
    return timeline;
  }

  private static Seen look(QueueUnit unit) {
    QueueUnitStatus status = unit.getStatus();
    Condition evicted = status.getConditions().stream()
        .filter(c -> QueueUnitConditions.EVICTED.equals(c.getType()) && "True".equals(c.getStatus()))
        .findFirst().orElse(null);
    return new Seen(Instant.now(), status.getPhase(), unit.getSpec().isActive(), status.getLastAllocateTime(),
        status.getRequeueState() == null ? null : status.getRequeueState().getCount(),
        status.getRequeueState() == null ? null : status.getRequeueState().getRequeueAt(),
        evicted == null ? null : evicted.getReason());
  }

  private static boolean sameButTime(Seen a, Seen b) {
    return Objects.equals(a.phase(), b.phase()) && a.active() == b.active()
        && Objects.equals(a.admittedAt(), b.admittedAt()) && Objects.equals(a.requeues(), b.requeues())
        && Objects.equals(a.requeueAt(), b.requeueAt()) && Objects.equals(a.evicted(), b.evicted());
  }

  /** The first look at each PodsReadyTimeout eviction, by its requeue time. */
  private static Map<String, Seen> evictions(List<Seen> timeline) {
    Map<String, Seen> evictions = new LinkedHashMap<>();
    timeline.stream()
        .filter(seen -> QueueUnitConditions.REASON_PODS_READY_TIMEOUT.equals(seen.evicted()) && seen.requeueAt() != null)
        .forEach(seen -> evictions.putIfAbsent(seen.requeueAt(), seen));
    return evictions;
  }

  private static List<Instant> admissions(List<Seen> timeline) {
    return timeline.stream().map(Seen::admittedAt).filter(Objects::nonNull).distinct().map(Instant::parse).toList();
  }

  private static List<String> eventReasons(TestCluster cluster, String unit) {
    return client.v1().events().inNamespace(cluster.namespace).list().getItems().stream()
        .filter(event -> "QueueUnit".equals(event.getInvolvedObject().getKind())
            && unit.equals(event.getInvolvedObject().getName()))
        .sorted(Comparator.comparing(event -> Instant.parse(event.getLastTimestamp())))
        .map(Event::getReason)
        .toList();
  }
}
