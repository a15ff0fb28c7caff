package io.koord4j.manager.admission;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which units still have pods that hold resources: pods naming their unit ({@code
 * koord-queue/related-queueunit}) that have not ended. A pod being deleted still holds its
 * resources until it is gone, as the kubelet stops it only after its grace period.
 */
final class UnitPods {
  private final Map<String, String> unitByPod = new HashMap<>();
  private final Map<String, Integer> podsByUnit = new HashMap<>();

  /** @return the pod's unit, when whether that unit has pods changed */
  Optional<String> update(Pod pod) {
    String unit = unitOf(pod);
    if (unit == null || hasEnded(pod)) {
      return remove(pod);
    }
    if (unitByPod.putIfAbsent(key(pod), unit) != null) {
      return Optional.empty();
    }
    return podsByUnit.merge(unit, 1, Integer::sum) == 1 ? Optional.of(unit) : Optional.empty();
  }

  /** @return the pod's unit, when it was the unit's last pod */
  Optional<String> remove(Pod pod) {
    String unit = unitByPod.remove(key(pod));
    if (unit == null) {
      return Optional.empty();
    }
    Integer left = podsByUnit.computeIfPresent(unit, (u, n) -> n == 1 ? null : n - 1);
    return left == null ? Optional.of(unit) : Optional.empty();
  }

  boolean hasPods(String unitId) {
    return podsByUnit.containsKey(unitId);
  }

  private static String unitOf(Pod pod) {
    return WellKnown.readQueueKey(pod.getMetadata().getAnnotations(), WellKnown.RELATED_QUEUEUNIT);
  }

  private static boolean hasEnded(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
