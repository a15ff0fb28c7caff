package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.manager.admission.UnitStatuses;
import io.koord4j.testing.Conflicts;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Quota is given to another job only once the pods that held it are gone. A finalizer on the
 * pods stands for a long grace period: they stay terminating until the test lets them go.
 */
class QuotaReleaseIT extends InProcessManagerBase {
  private static final String HOLD = "test.koord4j.io/hold";
  private static final Duration DECISION = Duration.ofMinutes(3);
  /** How long a released job's terminating pod is watched keeping others out. */
  private static final Duration HELD = Duration.ofSeconds(10);

  @Test
  void aDeletedJobsQuotaWaitsForItsTerminatingPods() {
    try (TestCluster cluster = new TestCluster(client, "it-release")) {
      String quota = cluster.quota("team", null, false, "1", "1");
      cluster.job("first", quota, 1, "1", 0, "600s");
      whileItsPodTerminates(
          cluster, "first", "second",
          pod -> {
            client.batch().v1().jobs().inNamespace(cluster.namespace).withName("first")
                .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
            await().atMost(DECISION).until(() -> terminating(pod) && cluster.unit("first") == null);
            cluster.job("second", quota, 1, "1", 0, "600s");
            awaitWaitingForQuota(cluster, "second");
            assertThat(cluster.resumed("second")).as("second started while the first's pod runs").isFalse();
          });
    }
  }

  /** The unit goes while no manager runs: the next one finds only the pods, and charges them. */
  @Test
  void aJobDeletedWhileNoManagerRunsStaysChargedUntilItsPodsAreGone() throws InterruptedException {
    try (TestCluster cluster = new TestCluster(client, "it-release-restart")) {
      String quota = cluster.quota("team", null, false, "1", "1");
      cluster.job("first", quota, 1, "1", 0, "600s");
      Pod pod = awaitRunningPod(cluster, "first");
      hold(pod);
      try {
        InProcessManager.stop();
        client.batch().v1().jobs().inNamespace(cluster.namespace).withName("first")
            .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
        await().atMost(DECISION).until(() -> terminating(pod) && cluster.unit("first") == null);
        InProcessManager.ensureRunning();
        cluster.job("second", quota, 1, "1", 0, "600s");
        awaitWaitingForQuota(cluster, "second");
        assertThat(cluster.resumed("second")).as("second started while the first's pod runs").isFalse();
      } finally {
        release(pod);
      }
      await().atMost(DECISION).until(() -> cluster.resumed("second"));
    }
  }

  @Test
  void aPreemptedJobsQuotaWaitsForItsTerminatingPods() {
    try (TestCluster cluster = new TestCluster(client, "it-release-evicted")) {
      List<String> leaves = twoLeavesOfTwoCpus(cluster, "a", "b");
      cluster.job("borrower", leaves.get(0), 1, "2", 0, "600s");
      whileItsPodTerminates(
          cluster, "borrower", "lender",
          pod -> {
            cluster.job("lender", leaves.get(1), 1, "1", 0, "600s");
            // Suspended, its pod terminating: the job has no active pod, and its unit is released.
            await().atMost(DECISION)
                .until(() -> terminating(pod) && isReleased(cluster, "borrower"));
            await().during(HELD).atMost(HELD.multipliedBy(3)).until(() -> !cluster.resumed("lender"));
          });
    }
  }

  @Test
  void aDeletedQuotaStaysChargedToItsParentUntilItsJobsEnd() {
    try (TestCluster cluster = new TestCluster(client, "it-release-quota")) {
      List<String> leaves = twoLeavesOfTwoCpus(cluster, "gone", "kept");
      String gone = leaves.get(0);
      String kept = leaves.get(1);
      cluster.job("running", gone, 1, "2", 0, "600s");
      await().atMost(DECISION).until(() -> cluster.resumed("running"));

      client.resources(ElasticQuota.class).inNamespace(TestCluster.QUOTA_NAMESPACE).withName(gone).delete();
      await().atMost(DECISION).until(() -> cluster.quota(gone) == null);
      cluster.job("next", kept, 1, "1", 0, "600s");
      awaitWaitingForQuota(cluster, "next");
      assertThat(cluster.resumed("next")).as("next started while the deleted quota's job runs").isFalse();

      client.batch().v1().jobs().inNamespace(cluster.namespace).withName("running").delete();
      await().atMost(DECISION).until(() -> cluster.resumed("next"));
    }
  }

  /** A Job of one pod per completion never replaces a pod that succeeded: its share is freed while the job runs. */
  @Test
  void aSucceededPodItsJobWillNotReplaceFreesItsShareBeforeTheJobEnds() {
    try (TestCluster cluster = new TestCluster(client, "it-release-succeeded")) {
      String quota = cluster.quota("team", null, false, "2", "2");
      cluster.job("first", quota, 2, "1", 0, "600s");
      List<Pod> pods = awaitRunningPods(cluster, "first", 2);
      cluster.job("second", quota, 1, "1", 0, "600s");
      awaitWaitingForQuota(cluster, "second");

      succeed(pods.get(0));

      await().atMost(DECISION).until(() -> cluster.resumed("second"));
      assertThat(cluster.unit("first").getStatus().getPhase()).as("first still runs its other pod")
          .isEqualTo(QueueUnitPhase.RUNNING);
    }
  }

  /** With more completions than pods at a time, the job starts a pod in a succeeded one's place. */
  @Test
  void aSucceededPodItsJobReplacesKeepsItsShare() {
    try (TestCluster cluster = new TestCluster(client, "it-release-replaced")) {
      String quota = cluster.quota("team", null, false, "2", "2");
      Job threeCompletions = cluster.jobOf("first", quota, 2, "1", "600s", pod -> pod);
      threeCompletions.getSpec().setCompletions(3);
      client.resource(threeCompletions).create();
      List<Pod> pods = awaitRunningPods(cluster, "first", 2);
      cluster.job("second", quota, 1, "1", 0, "600s");
      awaitWaitingForQuota(cluster, "second");

      succeed(pods.get(0));

      awaitRunningPods(cluster, "first", 2);
      await().during(HELD).atMost(HELD.multipliedBy(3)).until(() -> !cluster.resumed("second"));
    }
  }

  /** Two leaves of min 1 and max 2 CPUs under a parent of 2: each can borrow the other's share. */
  private static List<String> twoLeavesOfTwoCpus(TestCluster cluster, String first, String second) {
    String top = cluster.quota("top", null, true, "2", "2");
    return List.of(
        cluster.quota(first, top, false, "1", "2"), cluster.quota(second, top, false, "1", "2"));
  }

  /**
   * Runs {@code scenario} while the running pod of {@code job} is kept terminating once deleted,
   * then lets the pod go and waits for {@code next} to start.
   */
  private void whileItsPodTerminates(
      TestCluster cluster, String job, String next, Consumer<Pod> scenario) {
    Pod pod = awaitRunningPod(cluster, job);
    hold(pod);
    try {
      scenario.accept(pod);
    } finally {
      release(pod);
    }
    await().atMost(DECISION).until(() -> cluster.resumed(next));
  }

  private Pod awaitRunningPod(TestCluster cluster, String job) {
    return awaitRunningPods(cluster, job, 1).get(0);
  }

  /** Waits until {@code count} pods of the job run, and returns them. */
  private List<Pod> awaitRunningPods(TestCluster cluster, String job, int count) {
    return await().atMost(DECISION)
        .until(
            () -> client.pods().inNamespace(cluster.namespace).withLabel("job-name", job).list().getItems()
                .stream()
                .filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase()))
                .toList(),
            running -> running.size() == count);
  }

  /** The pod's work is done, as its kubelet would report it. */
  private void succeed(Pod pod) {
    Conflicts.retrying(() -> byName(pod).editStatus(p -> {
      p.getStatus().setPhase("Succeeded");
      return p;
    }));
  }

  /** The unit's pass has decided: it waits, and says it is for quota. */
  private static void awaitWaitingForQuota(TestCluster cluster, String unit) {
    await().atMost(DECISION)
        .until(
            () -> {
              QueueUnit u = cluster.unit(unit);
              return u != null && u.getStatus() != null && u.getStatus().getMessage() != null
                  && QueueUnitPhase.ENQUEUED.equals(u.getStatus().getPhase())
                  && u.getStatus().getMessage().contains("quota");
            });
  }

  private void hold(Pod pod) {
    Conflicts.retrying(() -> byName(pod)
        .edit(p -> new PodBuilder(p).editMetadata().addToFinalizers(HOLD).endMetadata().build()));
  }

  private void release(Pod pod) {
    if (byName(pod).get() != null) {
      Conflicts.retrying(() -> byName(pod).edit(p -> {
        p.getMetadata().setFinalizers(
            p.getMetadata().getFinalizers().stream().filter(f -> !HOLD.equals(f)).toList());
        return p;
      }));
    }
  }

  /** The pod by name, so that each edit reads it afresh. */
  private PodResource byName(Pod pod) {
    return client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName());
  }

  private boolean terminating(Pod pod) {
    Pod current = client.pods().resource(pod).get();
    return current != null && current.getMetadata().getDeletionTimestamp() != null;
  }

  /** Evicted, and its job seen stopped: the unit no longer claims its quota itself. */
  private static boolean isReleased(TestCluster cluster, String unit) {
    Condition evicted = cluster.condition(unit, QueueUnitConditions.EVICTED);
    return evicted != null
        && "True".equals(evicted.getStatus())
        && !UnitStatuses.awaitsRelease(cluster.unit(unit).getStatus());
  }
}
