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
  /** Each live pod's unit, and whether the pod is being deleted. */
  private final Map<String, PodState> pods = new HashMap<>();
  private final Map<String, Integer> podsByUnit = new HashMap<>();
  private final Map<String, Integer> deletingByUnit = new HashMap<>();

  private record PodState(String unit, boolean deleting) {}

  /** @return the pod's unit, when whether that unit has pods, or pods being deleted, changed */
  Optional<String> update(Pod pod) {
    String unit = unitOf(pod);
    if (unit == null || hasEnded(pod)) {
      return remove(pod);
    }
    PodState now = new PodState(unit, pod.getMetadata().getDeletionTimestamp() != null);
    PodState before = pods.put(key(pod), now);
    if (now.equals(before)) {
      return Optional.empty();
    }
    boolean changed = before == null && count(podsByUnit, unit, 1);
    if (before != null && before.deleting()) {
      changed |= count(deletingByUnit, before.unit(), -1);
    }
    if (now.deleting()) {
      changed |= count(deletingByUnit, unit, 1);
    }
    return changed ? Optional.of(unit) : Optional.empty();
  }

  /** @return the pod's unit, when it was the unit's last pod or last pod being deleted */
  Optional<String> remove(Pod pod) {
    PodState state = pods.remove(key(pod));
    if (state == null) {
      return Optional.empty();
    }
    boolean changed = count(podsByUnit, state.unit(), -1);
    if (state.deleting()) {
      changed |= count(deletingByUnit, state.unit(), -1);
    }
    return changed ? Optional.of(state.unit()) : Optional.empty();
  }

  boolean hasPods(String unitId) {
    return podsByUnit.containsKey(unitId);
  }

  /**
   * Whether pods of the unit are being deleted: a finished job's pods that still run are its
   * owner's to keep (a RayJob's cluster may outlive it), but pods on their way out hold resources.
   */
  boolean hasPodsBeingDeleted(String unitId) {
    return deletingByUnit.containsKey(unitId);
  }

  /** @return whether the unit's count went from none to some or from some to none */
  private static boolean count(Map<String, Integer> counts, String unit, int delta) {
    int before = counts.getOrDefault(unit, 0);
    int after = before + delta;
    if (after == 0) {
      counts.remove(unit);
    } else {
      counts.put(unit, after);
    }
    return (before == 0) != (after == 0);
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
