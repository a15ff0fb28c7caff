package io.koord4j.manager.support;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitStatus;
import java.time.Instant;
import java.util.Optional;

/**
 * The one writer of QueueUnit statuses, used by the admission loop, the job reconcilers and the
 * gang-feasibility check. A write is skipped when the status would not change, stamps {@code
 * lastUpdateTime}, and carries the resourceVersion the decision was based on, so a unit changed
 * meanwhile is refused (409) rather than overwritten.
 */
public final class QueueUnitStatusRecorder implements QueueUnitWrites {

  private final KubernetesClient client;

  public QueueUnitStatusRecorder(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Stores {@code desired} unless it equals the current status.
   *
   * @return the stored unit, or empty when nothing needed writing
   * @throws KubernetesClientException on a conflict or when the unit is gone
   */
  public Optional<QueueUnit> record(QueueUnit current, QueueUnitStatus desired, Instant now) {
    return changed(current, desired, now).map(status -> store(current, status));
  }

  /** {@code desired} stamped with {@code now}, or empty when it equals the current status. */
  public static Optional<QueueUnitStatus> changed(QueueUnit current, QueueUnitStatus desired, Instant now) {
    if (Json.same(current.getStatus(), desired)) {
      return Optional.empty();
    }
    desired.setLastUpdateTime(now.toString());
    return Optional.of(desired);
  }

  @Override
  public QueueUnit store(QueueUnit current, QueueUnitStatus status) {
    QueueUnit updated = Json.copy(current);
    updated.setStatus(status);
    return client.resource(updated).updateStatus();
  }

  /**
   * A Kubernetes Event on the unit and on the job it stands for, where its user looks; a failure
   * is only logged, events are best effort.
   */
  @Override
  public void event(QueueUnit unit, String type, String reason, String message, Instant now) {
    KubeObjects.event(client, unit, type, reason, message, now);
    ObjectReference job = unit.getSpec() == null ? null : unit.getSpec().getConsumerRef();
    if (job != null && job.getName() != null) {
      KubeObjects.event(client, reference(job, unit.getMetadata().getNamespace()), type, reason, message, now);
    }
  }

  /** The job as an object an Event can name: its apiVersion, kind, name and uid. */
  private static HasMetadata reference(ObjectReference job, String namespace) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion(job.getApiVersion());
    object.setKind(job.getKind());
    object.setMetadata(new ObjectMetaBuilder()
        .withNamespace(job.getNamespace() == null ? namespace : job.getNamespace())
        .withName(job.getName())
        .withUid(job.getUid())
        .build());
    return object;
  }
}
