package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.quantity.ResourceQuantities;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Pods that name a quota with {@code quota.scheduling.koordinator.sh/name} are charged to it
 * whether or not a queued job owns them, and the pods of a queued job are charged once, through
 * their unit.
 */
class QuotaChargedPodsIT extends InProcessManagerBase {
  private static final Duration PATIENCE = Duration.ofMinutes(3);

  /**
   * A pod as Koordinator's elastic-quota guide writes one; the local cluster's default scheduler
   * places it here, and KWOK keeps it running.
   */
  private static String guidePod(String quota) {
    return """
        apiVersion: v1
        kind: Pod
        metadata:
          name: pod-example
          labels:
            quota.scheduling.koordinator.sh/name: "%s"
        spec:
          containers:
          - name: curlimage
            image: busybox
            imagePullPolicy: IfNotPresent
            command: ["sleep", "365d"]
            resources:
              limits:
                cpu: 1
                memory: 1Gi
              requests:
                cpu: 1
                memory: 1Gi
          restartPolicy: Always
        """.formatted(quota);
  }

  @Test
  void aBarePodIsChargedToItsQuotaAndAQueuedJobsPodsAreChargedOnceThroughTheirUnit() {
    try (TestCluster cluster = new TestCluster(client, "it-podquota")) {
      String top = cluster.quota("top", null, true, "4", "4");
      String leaf = cluster.quota("leaf", top, false, "4", "4");
      Pod pod = client.pods().inNamespace(cluster.namespace)
          .load(new ByteArrayInputStream(guidePod(leaf).getBytes(StandardCharsets.UTF_8))).item();
      client.pods().inNamespace(cluster.namespace).resource(pod).create();

      await().atMost(PATIENCE).untilAsserted(() -> {
        assertThat(usedCpu(cluster, leaf)).isEqualTo(1_000);
        assertThat(cluster.quota(leaf).getMetadata().getAnnotations())
            .hasEntrySatisfying(WellKnown.QUOTA_REQUEST, request -> assertThat(request).contains("\"cpu\":\"1\""));
      });

      cluster.job("train", leaf, 2, "1500m", 0, "120s");
      await().atMost(PATIENCE).until(() -> cluster.resumed("train"));
      await().atMost(PATIENCE).until(() -> runningPodsOf(cluster, "train") == 2);
      // The job's pods run now; they are its unit's, so they add nothing to what it holds.
      await().pollDelay(Duration.ofSeconds(5)).atMost(PATIENCE)
          .untilAsserted(() -> assertThat(usedCpu(cluster, leaf)).isEqualTo(4_000));

      // The bare pod's CPU is in use: a job that would fit without it waits.
      cluster.job("more", leaf, 1, "1", 0);
      Condition reserved = await().atMost(PATIENCE).until(
          () -> cluster.condition("more", QueueUnitConditions.QUOTA_RESERVED), c -> c != null);
      assertThat(reserved.getStatus()).isEqualTo("False");
      assertThat(reserved.getMessage()).contains(leaf, "cpu");
      assertThat(cluster.resumed("more")).isFalse();
    }
  }

  private static long usedCpu(TestCluster cluster, String quota) {
    var status = cluster.quota(quota).getStatus();
    return status == null || status.getUsed() == null
        ? 0
        : ResourceQuantities.toVector(status.getUsed()).get("cpu");
  }

  private static long runningPodsOf(TestCluster cluster, String job) {
    return client.pods().inNamespace(cluster.namespace).withLabel("job-name", job).list().getItems().stream()
        .filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase()))
        .count();
  }
}
