package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.testing.LocalCluster;
import io.koord4j.testing.Soak;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The manager killed with SIGKILL in the middle of 60 submissions (200 under -Psoak) to three leaf
 * quotas that together run 12 of them at a time, and replaced by a new process: every job still runs to
 * completion, each is resumed exactly once, and no quota's admitted usage ever exceeds its max.
 */
class ManagerCrashIT {
  private static final int JOBS = Soak.size(60, 200);
  private static final Duration LEASE = Duration.ofSeconds(6);

  @Test
  void aManagerKilledMidwayLosesNoJobAndStartsEachOnce() throws Exception {
    InProcessManager.stop(); // only the processes under test may admit
    InProcessManager.ensureNodes();
    try (KubernetesClient client = LocalCluster.client();
        TestCluster cluster = new TestCluster(client, "it-crash")) {
      LocalCluster.ensureAllCrds(client); // the manager processes watch them all
      String top = cluster.quota("top", null, true, "12", "12");
      List<String> leaves =
          List.of(
              cluster.quota("l1", top, false, "4", "4"),
              cluster.quota("l2", top, false, "4", "4"),
              cluster.quota("l3", top, false, "4", "4"));
      Map<String, String> parents =
          leaves.stream().collect(Collectors.toMap(Function.identity(), leaf -> top));
      Map<String, Long> maxima = new HashMap<>(Map.of(top, 12_000L));
      leaves.forEach(leaf -> maxima.put(leaf, 4_000L));
      String lease = cluster.prefix + "-manager";

      try (QuotaUsageWatcher usage =
              new QuotaUsageWatcher(client, cluster.namespace, parents, maxima);
          ResumeCounter resumes = new ResumeCounter(client, cluster.namespace)) {
        ManagerProcess first =
            ManagerProcess.start(cluster.namespace, lease, LEASE, cluster.prefix + "-first");
        submit(cluster, leaves, 0, JOBS / 2);
        // Kill it while it works: some jobs admitted, most still queued.
        await().atMost(Duration.ofMinutes(2)).until(() -> resumes.total() >= 10);
        Instant killedAt = Instant.now();
        first.kill();
        ManagerProcess second =
            ManagerProcess.start(cluster.namespace, lease, LEASE, cluster.prefix + "-second");
        try {
          submit(cluster, leaves, JOBS / 2, JOBS);
          await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofSeconds(2))
              .failFast("the new leader exited", () -> assertThat(second.isAlive())
                  .as(() -> second + " exited; its log ends:\n" + second.logTail(40)).isTrue())
              .untilAsserted(() -> {
                List<QueueUnit> units =
                    client.resources(QueueUnit.class).inNamespace(cluster.namespace).list().getItems();
                assertThat(units.size()).as("queue units").isEqualTo(JOBS);
                assertThat(unfinished(units)).as("units not yet Succeed").isEmpty();
              });

          Instant takeover = acquired(client, cluster.namespace, lease);
          Instant firstResume = resumes.firstAfter(takeover);
          System.out.printf(
              "manager crash: %d jobs submitted, %d resumed before the kill, %d resume transitions"
                  + " in all; new leader %d ms after the kill, first resume %d ms after the kill%n",
              JOBS, resumes.before(killedAt), resumes.total(),
              Duration.between(killedAt, takeover).toMillis(),
              Duration.between(killedAt, firstResume).toMillis());
          assertThat(second.isAlive()).as("%s", second).isTrue();
          assertThat(resumes.counts())
              .hasSize(JOBS)
              .allSatisfy((job, count) -> assertThat(count).as(job).isEqualTo(1));
          assertThat(client.batch().v1().jobs().inNamespace(cluster.namespace).list().getItems())
              .hasSize(JOBS)
              .allSatisfy(job -> assertThat(job.getStatus().getSucceeded()).isEqualTo(1));
          assertThat(usage.violations()).isEmpty();
        } finally {
          second.stop();
        }
        Lease released = client.leases().inNamespace(cluster.namespace).withName(lease).get();
        assertThat(released.getSpec().getLeaseDurationSeconds()).isEqualTo(1);
      }
    }
  }

  /** Jobs {@code from} to {@code to - 1}, one CPU each, spread over the leaves in turn. */
  private static void submit(TestCluster cluster, List<String> leaves, int from, int to)
      throws InterruptedException {
    for (int i = from; i < to; i++) {
      cluster.job("job-" + i, leaves.get(i % leaves.size()), 1, "1", 0, "2s");
      Thread.sleep(20);
    }
  }

  /** Each unit not yet succeeded, with its phase and message: what a timeout reports. */
  private static Map<String, String> unfinished(List<QueueUnit> units) {
    Map<String, String> unfinished = new TreeMap<>();
    for (QueueUnit unit : units) {
      QueueUnitStatus status = unit.getStatus();
      if (status == null || !QueueUnitPhase.SUCCEED.equals(status.getPhase())) {
        unfinished.put(unit.getMetadata().getName(),
            status == null ? "no status" : status.getPhase() + ": " + status.getMessage());
      }
    }
    return unfinished;
  }

  private static Instant acquired(KubernetesClient client, String namespace, String lease) {
    ZonedDateTime at =
        client.leases().inNamespace(namespace).withName(lease).get().getSpec().getAcquireTime();
    return at.toInstant();
  }

  /** Counts, per job, its transitions from suspended to running, as a watch sees them. */
  private static final class ResumeCounter implements AutoCloseable {
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    private final List<Instant> times = new CopyOnWriteArrayList<>();
    private final SharedIndexInformer<Job> informer;

    ResumeCounter(KubernetesClient client, String namespace) {
      informer =
          client.batch().v1().jobs().inNamespace(namespace)
              .inform(
                  new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Job job) {}

                    @Override
                    public void onUpdate(Job before, Job job) {
                      if (isSuspended(before) && !isSuspended(job)) {
                        counts.merge(job.getMetadata().getName(), 1, Integer::sum);
                        times.add(Instant.now());
                      }
                    }

                    @Override
                    public void onDelete(Job job, boolean finalStateUnknown) {}
                  },
                  0);
    }

    Map<String, Integer> counts() {
      return Map.copyOf(counts);
    }

    int total() {
      return times.size();
    }

    long before(Instant instant) {
      return times.stream().filter(t -> t.isBefore(instant)).count();
    }

    Instant firstAfter(Instant instant) {
      return times.stream().filter(t -> !t.isBefore(instant)).min(Instant::compareTo).orElseThrow();
    }

    @Override
    public void close() {
      informer.stop();
    }

    private static boolean isSuspended(Job job) {
      return Boolean.TRUE.equals(job.getSpec().getSuspend());
    }
  }
}
