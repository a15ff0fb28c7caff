package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueConfigsTest {

  @Test
  void theBackfillAnnotationTurnsOnTheQueuesBackfill() {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName("team").withNamespace("koord-queue")
        .withAnnotations(Map.of(WellKnown.BACKFILL, "true")).build());
    queue.setSpec(new QueueSpec());

    assertThat(QueueConfigs.from(queue).backfill()).isTrue();
    queue.getMetadata().setAnnotations(Map.of());
    assertThat(QueueConfigs.from(queue).backfill()).isFalse();
  }

  @Test
  void koordQueuesAnnotationsTurnOnWaitingForPodsAndPreemptionUnderEitherPrefix() {
    Queue queue = new Queue();
    queue.setMetadata(new ObjectMetaBuilder().withName("research-vision").withNamespace("koord-queue")
        .withAnnotations(Map.of(
            "koord-queue/wait-for-pods-running", "true",
            "koord-queue/enable-queueunit-preemption", "true"))
        .build());
    queue.setSpec(new QueueSpec());

    assertThat(QueueConfigs.from(queue).waitForPodsRunning()).isTrue();
    assertThat(QueueConfigs.from(queue).preemptionEnabled()).isTrue();

    queue.getMetadata().setAnnotations(Map.of("kube-queue/wait-for-pods-running", "true"));
    assertThat(QueueConfigs.from(queue).waitForPodsRunning()).isTrue();
    assertThat(QueueConfigs.from(queue).preemptionEnabled()).isFalse();

    queue.getMetadata().setAnnotations(Map.of());
    assertThat(QueueConfigs.from(queue).waitForPodsRunning()).isFalse();
  }
}
