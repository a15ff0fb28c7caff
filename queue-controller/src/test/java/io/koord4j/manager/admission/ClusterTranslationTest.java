package io.koord4j.manager.admission;

import io.koord4j.quota.kube.QuotaResolver;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.queue.core.Backoff;
import io.koord4j.queue.core.QueueConfig;
import io.koord4j.queue.core.QueuePolicy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Queues and QueueUnits as the admission core reads them, and the quota a unit uses. */
class ClusterTranslationTest {

  @Test
  void readsQueuePolicyPriorityFlagsAndBackoff() {
    Queue queue = new Queue();
    queue.setMetadata(
        new ObjectMetaBuilder()
            .withName("batch")
            .addToAnnotations(WellKnown.QUEUE_ARGS, "podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 60\n")
            .addToAnnotations("kube-queue/enable-queueunit-preemption", "true")
            .build());
    QueueSpec spec = new QueueSpec();
    spec.setQueuePolicy("Block");
    spec.setPriority(50);
    queue.setSpec(spec);

    QueueConfig config = QueueConfigs.from(queue);

    assertThat(config.policy()).isEqualTo(QueuePolicy.BLOCK);
    assertThat(config.priority()).isEqualTo(50);
    assertThat(config.preemptionEnabled()).isTrue();
    assertThat(config.waitForPodsRunning()).isFalse();
    assertThat(config.backoff()).isEqualTo(new Backoff(Duration.ofSeconds(5), Duration.ofSeconds(60)));
  }

  @Test
  void aUnitUsesItsQuotaLabelElseTheQuotaOfItsQueueElseItsNamespacesQuota() {
    Map<String, ElasticQuota> quotas =
        Map.of(
            "gpu", quota("gpu", Map.of()),
            "team-a", quota("team-a", Map.of()),
            "bound", quota("bound", Map.of(WellKnown.QUOTA_NAMESPACES, "[\"team-b\"]")));

    assertThat(QuotaResolver.resolve(unit("team-a", "gpu", Map.of(WellKnown.QUOTA_NAME, "x")), quotas))
        .isEqualTo("x");
    assertThat(QuotaResolver.resolve(unit("team-a", "gpu", Map.of()), quotas)).isEqualTo("gpu");
    assertThat(QuotaResolver.resolve(unit("team-a", "other", Map.of()), quotas)).isEqualTo("team-a");
    assertThat(QuotaResolver.resolve(unit("team-b", "other", Map.of()), quotas)).isEqualTo("bound");
    assertThat(QuotaResolver.resolve(unit("team-c", "other", Map.of()), quotas))
        .isEqualTo(WellKnown.DEFAULT_QUOTA);
  }

  @Test
  void aUnitsSpecCarriesItsQueuePriorityArrivalAndTotalRequest() {
    QueueUnit unit = unit("ns", "gpu", Map.of());
    unit.getMetadata().setCreationTimestamp("2026-01-02T03:04:05Z");
    unit.getSpec().setPriority(7);
    unit.getSpec().setResource(Map.of("cpu", new Quantity("6")));

    var spec = UnitSpecs.from(unit, "gpu");

    assertThat(spec.id()).isEqualTo("ns/job");
    assertThat(spec.queue()).isEqualTo("gpu");
    assertThat(spec.priority()).isEqualTo(7);
    assertThat(spec.arrival()).hasToString("2026-01-02T03:04:05Z");
    assertThat(spec.request().get("cpu")).isEqualTo(6000);
  }

  static ElasticQuota quota(String name, Map<String, String> annotations) {
    ElasticQuota quota = new ElasticQuota();
    quota.setMetadata(new ObjectMetaBuilder().withName(name).withAnnotations(annotations).build());
    return quota;
  }

  static QueueUnit unit(String namespace, String queue, Map<String, String> labels) {
    QueueUnit unit = new QueueUnit();
    unit.setMetadata(
        new ObjectMetaBuilder().withName("job").withNamespace(namespace).withLabels(labels).build());
    QueueUnitSpec spec = new QueueUnitSpec();
    spec.setQueue(queue);
    unit.setSpec(spec);
    return unit;
  }
}
