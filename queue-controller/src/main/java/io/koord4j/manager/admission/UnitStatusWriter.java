package io.koord4j.manager.admission;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.manager.support.Json;
import io.koord4j.manager.support.KubeObjects;
import java.time.Instant;
import java.util.Optional;

/**
 * Writes QueueUnit statuses with optimistic concurrency: the write carries the resourceVersion the
 * decision was based on, so a unit changed meanwhile is refused (409) rather than overwritten.
 */
final class UnitStatusWriter {

  private final KubernetesClient client;

  UnitStatusWriter(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Stores {@code desired} unless it equals the current status.
   *
   * @return the stored unit, or empty when nothing needed writing
   * @throws KubernetesClientException on a conflict or when the unit is gone
   */
  Optional<QueueUnit> write(QueueUnit current, QueueUnitStatus desired, Instant now) {
    if (Json.same(current.getStatus(), desired)) {
      return Optional.empty();
    }
    desired.setLastUpdateTime(now.toString());
    QueueUnit updated = Json.copy(current, QueueUnit.class);
    updated.setStatus(desired);
    return Optional.of(client.resource(updated).updateStatus());
  }

  /** A Kubernetes Event on the unit; a failure is only logged, events are best effort. */
  void event(QueueUnit unit, String type, String reason, String message, Instant now) {
    KubeObjects.event(client, unit, type, reason, message, now);
  }
}
