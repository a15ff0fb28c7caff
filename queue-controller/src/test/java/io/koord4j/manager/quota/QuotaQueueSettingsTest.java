package io.koord4j.manager.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import io.koord4j.api.quota.ElasticQuota;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuotaQueueSettingsTest {
  private static ElasticQuota quota(Map<String, String> labels, Map<String, String> annotations) {
    ElasticQuota quota = new ElasticQuota();
    quota.setMetadata(
        new ObjectMetaBuilder().withName("team").withLabels(labels).withAnnotations(annotations).build());
    return quota;
  }

  private static Queue queue(String policy) {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName("team").build());
    queue.setSpec(new QueueSpec());
    queue.getSpec().setQueuePolicy(policy);
    return queue;
  }

  @Test
  void theQuotasPolicyLabelAndThresholdAnnotationGoToItsQueue() {
    QuotaQueueSettings settings =
        QuotaQueueSettings.of(
            quota(
                Map.of(WellKnown.QUEUE_POLICY_LABEL, "Intelligent"),
                Map.of(WellKnown.PRIORITY_THRESHOLD, "6")));
    Queue queue = queue("Priority");

    assertThat(settings.appliedTo(queue)).isFalse();
    settings.applyTo(queue);
    assertThat(queue.getSpec().getQueuePolicy()).isEqualTo("Intelligent");
    assertThat(queue.getMetadata().getAnnotations()).containsEntry(WellKnown.PRIORITY_THRESHOLD, "6");
    assertThat(settings.appliedTo(queue)).isTrue();
  }

  @Test
  void olderKubeQueueKeysAreReadToo() {
    QuotaQueueSettings settings =
        QuotaQueueSettings.of(
            quota(Map.of("kube-queue/queue-policy", "Block"), Map.of("kube-queue/priority-threshold", "3")));

    assertThat(settings).isEqualTo(new QuotaQueueSettings("Block", Map.of(WellKnown.PRIORITY_THRESHOLD, "3")));
  }

  @Test
  void aQuotaWithoutSettingsOrWithAnUnknownPolicyLeavesAHandWrittenQueueAsItIs() {
    Queue queue = queue("Block");

    assertThat(QuotaQueueSettings.of(quota(Map.of(), Map.of())).appliedTo(queue)).isTrue();
    assertThat(QuotaQueueSettings.of(quota(Map.of(WellKnown.QUEUE_POLICY_LABEL, "Fair"), Map.of())).appliedTo(queue))
        .isTrue();
  }

  @Test
  void theQuotasBackfillAnnotationGoesToItsQueueBesideItsOwnAnnotations() {
    QuotaQueueSettings settings = QuotaQueueSettings.of(quota(Map.of(), Map.of(WellKnown.BACKFILL, "true")));
    Queue queue = queue("Priority");
    queue.getMetadata().setAnnotations(Map.of("team/owner", "ml"));

    assertThat(settings.appliedTo(queue)).isFalse();
    settings.applyTo(queue);

    assertThat(queue.getMetadata().getAnnotations())
        .containsEntry(WellKnown.BACKFILL, "true")
        .containsEntry("team/owner", "ml");
    assertThat(queue.getSpec().getQueuePolicy()).isEqualTo("Priority");
    assertThat(settings.appliedTo(queue)).isTrue();
  }
}
