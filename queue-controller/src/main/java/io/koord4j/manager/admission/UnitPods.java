package io.koord4j.manager.admission;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.quota.kube.PodCharges;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which units still have pods that hold resources: pods naming their unit ({@code
 * koord-queue/related-queueunit}) that have not ended. A pod being deleted still holds its
 * resources until it is gone, as the kubelet stops it only after its grace period. Also how many
 * of each unit's pods succeeded, while they exist (see {@link UnitSpecs#charged}).
 */
final class UnitPods {
  /** Each live pod's unit, and whether the pod is being deleted. */
  private final Map<String, PodState> pods = new HashMap<>();
  /** The live pods of each unit, by key. */
  private final Map<String, Map<String, Pod>> podsByUnit = new HashMap<>();
  private final Map<String, Integer> deletingByUnit = new HashMap<>();
  /** The succeeded pods of each unit, by key. */
  private final Map<String, Set<String>> succeededByUnit = new HashMap<>();

  private record PodState(String unit, boolean deleting) {}

  /**
   * @return the pod's unit, when whether that unit has pods, or pods being deleted, or how many
   *     succeeded, changed
   */
  Optional<String> update(Pod pod) {
    String unit = PodCharges.unitOf(pod);
    if (unit != null && hasSucceeded(pod)) {
      boolean counted = succeededByUnit.computeIfAbsent(unit, ignored -> new HashSet<>()).add(key(pod));
      return removeLive(pod).or(() -> counted ? Optional.of(unit) : Optional.empty());
    }
    if (unit == null || hasEnded(pod)) {
      return remove(pod);
    }
    PodState now = new PodState(unit, pod.getMetadata().getDeletionTimestamp() != null);
    PodState before = pods.put(key(pod), now);
    Map<String, Pod> unitPods = podsByUnit.computeIfAbsent(unit, ignored -> new HashMap<>());
    boolean changed = unitPods.put(key(pod), pod) == null && unitPods.size() == 1;
    if (now.equals(before)) {
      return Optional.empty();
    }
    if (before != null && before.deleting()) {
      changed |= count(deletingByUnit, before.unit(), -1);
    }
    if (now.deleting()) {
      changed |= count(deletingByUnit, unit, 1);
    }
    return changed ? Optional.of(unit) : Optional.empty();
  }

  /** @return the pod's unit, when it was the unit's last pod or last pod being deleted, or had succeeded */
  Optional<String> remove(Pod pod) {
    Optional<String> unit = removeLive(pod);
    String succeededOf = PodCharges.unitOf(pod);
    boolean uncounted = succeededOf != null && uncount(succeededOf, key(pod));
    return unit.or(() -> uncounted ? Optional.of(succeededOf) : Optional.empty());
  }

  /** @return the pod's unit, when it was the unit's last live pod or last pod being deleted */
  private Optional<String> removeLive(Pod pod) {
    PodState state = pods.remove(key(pod));
    if (state == null) {
      return Optional.empty();
    }
    Map<String, Pod> unitPods = podsByUnit.get(state.unit());
    unitPods.remove(key(pod));
    boolean changed = unitPods.isEmpty() && podsByUnit.remove(state.unit()) != null;
    if (state.deleting()) {
      changed |= count(deletingByUnit, state.unit(), -1);
    }
    return changed ? Optional.of(state.unit()) : Optional.empty();
  }

  /** How many of the unit's pods succeeded, of those that still exist. */
  int succeeded(String unitId) {
    return succeededByUnit.getOrDefault(unitId, Set.of()).size();
  }

  private boolean uncount(String unit, String podKey) {
    Set<String> succeeded = succeededByUnit.get(unit);
    if (succeeded == null || !succeeded.remove(podKey)) {
      return false;
    }
    if (succeeded.isEmpty()) {
      succeededByUnit.remove(unit);
    }
    return true;
  }

  /** Whether the pod, one of a unit's, is ready and was not when last seen. */
  boolean becomesReady(Pod pod) {
    String unit = PodCharges.unitOf(pod);
    if (unit == null || !isReady(pod)) {
      return false;
    }
    Pod before = podsByUnit.getOrDefault(unit, Map.of()).get(key(pod));
    return before == null || !isReady(before);
  }

  /** How many of the unit's pods are ready or succeeded, as last seen. */
  int readyOrSucceeded(String unitId) {
    long ready = podsByUnit.getOrDefault(unitId, Map.of()).values().stream().filter(UnitPods::isReady).count();
    return (int) ready + succeeded(unitId);
  }

  boolean hasPods(String unitId) {
    return podsByUnit.containsKey(unitId);
  }

  /** The unit's live pods, as last seen. */
  List<Pod> podsOf(String unitId) {
    return List.copyOf(podsByUnit.getOrDefault(unitId, Map.of()).values());
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

  private static boolean hasSucceeded(Pod pod) {
    return pod.getStatus() != null && "Succeeded".equals(pod.getStatus().getPhase());
  }

  private static boolean isReady(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(condition -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
  }

  private static boolean hasEnded(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
