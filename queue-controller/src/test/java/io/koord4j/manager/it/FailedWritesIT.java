package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.koord4j.manager.admission.AdmissionContext;
import io.koord4j.manager.admission.AdmissionLoop;
import io.koord4j.manager.admission.AdmissionSnapshot;
import io.koord4j.manager.admission.AdmissionSnapshots;
import io.koord4j.manager.admission.WriteRate;
import io.koord4j.queue.core.WaitForPodsReady;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.quota.ResourceVector;
import io.koord4j.testing.LocalCluster;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An admission loop that reads the real cluster but cannot write, because every write and re-read
 * fails or because the replica may no longer lead: it never counts an admission it did not store.
 */
class FailedWritesIT {
  private static KubernetesClient client;

  @BeforeAll
  static void onlyThisLoopAdmits() {
    // The shared in-process manager would store the admissions this test's loop cannot.
    InProcessManager.stop();
    InProcessManager.ensureNodes();
    client = LocalCluster.client();
    LocalCluster.ensureAllCrds(client);
  }

  @AfterAll
  static void closeClient() {
    client.close();
  }

  @Test
  void anAdmissionThatCannotBeStoredIsNotCounted() throws InterruptedException {
    try (TestCluster cluster = new TestCluster(client, "it-failed-writes");
        KubernetesClient unreachable =
            new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0).build())
                .build()) {
      List<ResourceVector> used = usedAfterPasses(cluster, unreachable, () -> true);

      assertThat(used).as("quota used after each pass").allMatch(ResourceVector::isZero);
      assertThat(cluster.phase("first")).as("nothing was stored").isNull();
    }
  }

  @Test
  void aReplicaThatMayNoLongerLeadWritesNoAdmission() throws InterruptedException {
    try (TestCluster cluster = new TestCluster(client, "it-fenced-writes")) {
      List<ResourceVector> used = usedAfterPasses(cluster, client, () -> false);

      assertThat(used).as("quota used after each pass").allMatch(ResourceVector::isZero);
      assertThat(cluster.phase("first")).as("nothing was stored").isNull();
    }
  }

  /**
   * Runs a loop writing through {@code writes} over one unit that fits, for a few passes: each
   * admits the unit and tries to store it. Returns the quota's used amount after each pass.
   */
  private static List<ResourceVector> usedAfterPasses(
      TestCluster cluster, KubernetesClient writes, BooleanSupplier leading) throws InterruptedException {
    cluster.queue("team", null);
    String quota = cluster.quota("team", null, false, "4", "4");
    cluster.unit("first", quota, "2");
    AdmissionSnapshots snapshots = new AdmissionSnapshots();
    List<ResourceVector> used = new CopyOnWriteArrayList<>();
    snapshots.subscribe(snapshot -> recordUsed(snapshot, quota, used));
    try (SharedInformers informers = new SharedInformers(client);
        AdmissionLoop loop =
            new AdmissionLoop(
                writes, informers, snapshots,
                new AdmissionContext(Clock.systemUTC(), leading, (queue, waited) -> {}, WriteRate.DEFAULTS,
                    WaitForPodsReady.DEFAULTS))) {
      loop.start();
      await().atMost(Duration.ofMinutes(2)).until(() -> used.size() >= 3);
    }
    return used;
  }

  private static void recordUsed(AdmissionSnapshot snapshot, String quota, List<ResourceVector> used) {
    AdmissionSnapshot.QuotaFigures figures = snapshot.quotas().get(quota);
    if (figures != null) {
      used.add(figures.used());
    }
  }
}
