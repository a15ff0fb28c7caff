package io.koord4j.manager.queue;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueStatus;
import io.koord4j.manager.admission.AdmissionSnapshot.QueueFigures;
import io.koord4j.manager.admission.AdmissionSnapshots;
import io.koord4j.manager.admission.AdmissionSnapshot;
import io.koord4j.manager.admission.QueueKeys;
import io.koord4j.manager.support.Json;
import io.koord4j.manager.support.KubeObjects;
import io.koord4j.manager.support.WritePacing;
import java.time.Duration;
import java.util.Optional;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Publishes each Queue's waiting units and their positions in {@code status.queueItemDetails}, at
 * most once a {@link WritePacing#INTERVAL} per queue: positions move with every admission.
 */
public record QueueReconciler(KubernetesClient client, AdmissionSnapshots snapshots, WritePacing pacing) {
  /**
   * Each Queue's positions in a snapshot, by the object's {@code namespace/name}: the lists
   * themselves, kept until the next snapshot, so no copy of them is made.
   */
  public static Map<String, ?> positions(AdmissionSnapshot snapshot) {
    return snapshot.queues().entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().items()));
  }

  /** @return when to publish again: the positions changed within the interval of the last write */
  public Optional<Duration> reconcile(Queue queue) {
    QueueFigures figures = snapshots.latest().queues().get(QueueKeys.of(queue));
    if (figures == null
        || (queue.getStatus() != null
            && Json.same(queue.getStatus().getQueueItemDetails(), figures.items()))) {
      return Optional.empty();
    }
    Optional<Duration> wait = pacing.waitBeforeWriting(Cache.metaNamespaceKeyFunc(queue));
    if (wait.isEmpty()) {
      QueueStatus status = new QueueStatus();
      status.setQueueItemDetails(figures.items());
      KubeObjects.replaceStatus(client, queue, status);
    }
    return wait;
  }
}
