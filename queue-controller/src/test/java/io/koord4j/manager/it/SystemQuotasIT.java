package io.koord4j.manager.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.kube.SystemQuotas;
import io.koord4j.testing.LocalCluster;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Koordinator's root, system and default quotas, and work that names no quota. */
class SystemQuotasIT extends InProcessManagerBase {
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  /**
   * Kueue's "Run a Job" sample as its documentation writes it; the only addition is the KWOK
   * annotation that keeps the local cluster's fake pods running for a minute.
   */
  private static final String KUEUE_SAMPLE_JOB =
      """
      apiVersion: batch/v1
      kind: Job
      metadata:
        generateName: sample-job-
        labels:
          kueue.x-k8s.io/queue-name: user-queue
      spec:
        parallelism: 3
        completions: 3
        suspend: true
        template:
          metadata:
            annotations:
              pod-complete.stage.kwok.x-k8s.io/delay: 60s
          spec:
            containers:
            - name: dummy-job
              image: gcr.io/k8s-staging-perf-tests/sleep:v0.0.3
              args: ["30s"]
              resources:
                requests:
                  cpu: 1
                  memory: "200Mi"
            restartPolicy: Never
      """;

  @Test
  void theRootSystemAndDefaultQuotasExistAsKoordinatorWritesThemAndComeBackWhenDeleted() {
    ElasticQuota root = await().atMost(PATIENCE).until(() -> quota(WellKnown.ROOT_QUOTA), q -> q != null);
    assertThat(root.getMetadata().getLabels())
        .containsEntry(WellKnown.QUOTA_IS_PARENT, "true")
        .containsEntry(WellKnown.QUOTA_ALLOW_LENT_RESOURCE, "false")
        .containsEntry(WellKnown.QUOTA_PARENT, "");
    for (String name : new String[] {WellKnown.SYSTEM_QUOTA, WellKnown.DEFAULT_QUOTA}) {
      ElasticQuota quota = await().atMost(PATIENCE).until(() -> quota(name), q -> q != null);
      assertThat(quota.getSpec().getMax()).containsKeys("cpu", "memory");
      assertThat(quota.getMetadata().getAnnotations()).containsKey(WellKnown.QUOTA_RUNTIME);
    }

    String uid = quota(WellKnown.DEFAULT_QUOTA).getMetadata().getUid();
    client.resources(ElasticQuota.class).inNamespace(SystemQuotas.NAMESPACE)
        .withName(WellKnown.DEFAULT_QUOTA).delete();
    await().atMost(PATIENCE).untilAsserted(() -> {
      ElasticQuota back = quota(WellKnown.DEFAULT_QUOTA);
      assertThat(back).isNotNull();
      assertThat(back.getMetadata().getUid()).isNotEqualTo(uid);
    });
  }

  @Test
  void aKueueSampleJobThatNamesNoQuotaRunsChargedToTheDefaultQuota() {
    String namespace = LocalCluster.createNamespace(client, "it-default-quota");
    try {
      // The queue the label names, standing for the team's Kueue LocalQueue; it names no quota.
      Queue queue = new Queue();
      queue.setMetadata(new ObjectMetaBuilder().withName("user-queue").withNamespace(namespace).build());
      queue.setSpec(new QueueSpec());
      client.resource(queue).create();
      Job job = client.batch().v1().jobs().inNamespace(namespace)
          .load(new ByteArrayInputStream(KUEUE_SAMPLE_JOB.getBytes(StandardCharsets.UTF_8)))
          .create();
      String name = job.getMetadata().getName();

      // Admission is koord4j's part: a Kueue started on the shared cluster would hold the pods.
      await().atMost(PATIENCE).untilAsserted(() -> {
        QueueUnit unit = client.resources(QueueUnit.class).inNamespace(namespace).withName(name).get();
        assertThat(unit).isNotNull();
        assertThat(unit.getStatus()).isNotNull();
        assertThat(unit.getStatus().getConditions())
            .anySatisfy(c -> {
              assertThat(c.getType()).isEqualTo(QueueUnitConditions.ADMITTED);
              assertThat(c.getStatus()).isEqualTo("True");
            });
      });
      await().atMost(PATIENCE).untilAsserted(() -> {
        assertThat(quota(WellKnown.DEFAULT_QUOTA).getStatus()).isNotNull();
        Map<String, Quantity> used = quota(WellKnown.DEFAULT_QUOTA).getStatus().getUsed();
        assertThat(ResourceQuantities.toVector(used).get("cpu")).isGreaterThanOrEqualTo(3_000);
      });
    } finally {
      client.namespaces().withName(namespace).delete();
    }
  }

  private static ElasticQuota quota(String name) {
    return client.resources(ElasticQuota.class).inNamespace(SystemQuotas.NAMESPACE).withName(name).get();
  }
}
