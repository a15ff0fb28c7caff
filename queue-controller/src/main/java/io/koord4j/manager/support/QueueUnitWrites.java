package io.koord4j.manager.support;

import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitStatus;
import java.time.Instant;

/** The QueueUnit writes of the admission loop's status writer: the API server in the manager. */
public interface QueueUnitWrites {
  /**
   * Stores {@code status} as the unit's status, on the resourceVersion of {@code current}.
   *
   * @return the stored unit
   * @throws io.fabric8.kubernetes.client.KubernetesClientException on a conflict, when the unit is
   *     gone or the API server cannot be reached
   */
  QueueUnit store(QueueUnit current, QueueUnitStatus status);

  /** An Event on the unit and on the job it stands for; best effort. */
  void event(QueueUnit unit, String type, String reason, String message, Instant now);
}
