package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.testing.Conflicts;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Backfill on a 4-CPU quota whose ElasticQuota carries {@code koord4j.io/backfill: "true"}: a job
 * of 3 CPUs expected to run 180 s (it runs 40 s, so that a slow cluster does not make it outlive
 * its estimate) holds the quota, a gang of 4 pods waits for it and is reserved
 * the running job's expected end; a short job expected to end before that goes ahead, a job
 * expected to run longer waits, and the gang starts no later than its reservation.
 */
class BackfillIT extends InProcessManagerBase {
  private static final Duration WAIT = Duration.ofMinutes(3);
  private static final Pattern RESERVED = Pattern.compile("reserved to start by (\\S+) ");

  @Test
  void aShortJobIsBackfilledAheadOfABlockedGangThatStillStartsByItsReservation() {
    try (TestCluster cluster = new TestCluster(client, "it-backfill")) {
      String quota = cluster.quota("team", null, false, "4", "4");
      Conflicts.retrying(() -> cluster.client.resources(ElasticQuota.class).inNamespace(TestCluster.QUOTA_NAMESPACE)
          .withName(quota).edit(q -> {
            Map<String, String> annotations = new HashMap<>(orEmpty(q.getMetadata().getAnnotations()));
            annotations.put(WellKnown.BACKFILL, "true");
            q.getMetadata().setAnnotations(annotations);
            return q;
          }));
      await().atMost(WAIT).until(() -> "true".equals(orEmpty(queue(quota).getMetadata().getAnnotations())
          .get(WellKnown.BACKFILL)));

      job(cluster, "running", quota, 1, "3", "40s", 180);
      await().atMost(WAIT).until(() -> cluster.resumed("running"));
      job(cluster, "gang", quota, 4, "1", "5s", 30);
      Condition gangWaits = await().atMost(WAIT).until(
          () -> cluster.condition("gang", QueueUnitConditions.QUOTA_RESERVED),
          c -> c != null && "QuotaShortage".equals(c.getReason()) && c.getMessage().contains("reserved to start by"));
      job(cluster, "long", quota, 1, "1", "5s", 600);
      Condition behind = awaitWaiting(cluster, "long", "BehindReservation");
      Instant reserved = reservedStart(behind);
      assertThat(reservedStart(gangWaits)).isEqualTo(reserved);
      job(cluster, "short", quota, 1, "1", "5s", 20);

      await().atMost(WAIT).until(() -> cluster.resumed("short"));
      assertThat(cluster.resumed("gang")).isFalse();
      assertThat(behind.getMessage()).contains(cluster.namespace + "/gang");

      await().atMost(WAIT).until(() -> cluster.resumed("gang"));
      assertThat(dequeuedAt(cluster, "gang")).isBeforeOrEqualTo(reserved);
      await().atMost(WAIT).until(() -> cluster.resumed("long"));
      assertThat(dequeuedAt(cluster, "long")).isAfterOrEqualTo(dequeuedAt(cluster, "gang"));
    }
  }

  /** A Job of {@code pods} pods that run {@code runFor}, expected to run {@code expectedSeconds}. */
  private static void job(
      TestCluster cluster, String name, String quota, int pods, String cpu, String runFor, int expectedSeconds) {
    Job job = cluster.jobOf(name, quota, pods, cpu, runFor, pod -> pod);
    job.getMetadata().setAnnotations(Map.of(WellKnown.EXPECTED_RUNTIME_SECONDS, Integer.toString(expectedSeconds)));
    cluster.client.resource(job).create();
  }

  private static Instant reservedStart(Condition behind) {
    Matcher matcher = RESERVED.matcher(behind.getMessage());
    assertThat(matcher.find()).as("reservation in: %s", behind.getMessage()).isTrue();
    return Instant.parse(matcher.group(1));
  }

  private static Instant dequeuedAt(TestCluster cluster, String job) {
    return Instant.parse(cluster.job(job).getMetadata().getAnnotations().get(WellKnown.JOB_DEQUEUE_TIMESTAMP));
  }

  private static Queue queue(String name) {
    return client.resources(Queue.class).inNamespace(Queue.DEFAULT_NAMESPACE).withName(name).get();
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }

  private static Condition awaitWaiting(TestCluster cluster, String unit, String reason) {
    return await().atMost(WAIT).until(
        () -> cluster.condition(unit, QueueUnitConditions.QUOTA_RESERVED),
        c -> c != null && "False".equals(c.getStatus()) && reason.equals(c.getReason()));
  }
}
