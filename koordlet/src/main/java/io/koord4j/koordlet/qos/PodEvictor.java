package io.koord4j.koordlet.qos;

import io.fabric8.kubernetes.api.model.Pod;

/** Evicts a pod and tells its owner why. */
public interface PodEvictor {
  /**
   * @param reason a CamelCase reason for the event
   * @param message the figures behind the decision
   * @return whether the pod is being evicted
   */
  boolean evict(Pod pod, String reason, String message);
}
