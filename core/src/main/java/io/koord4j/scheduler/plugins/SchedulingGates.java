package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSchedulingGate;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.PreFilterPlugin;
import io.koord4j.scheduler.framework.Status;
import java.util.List;
import java.util.Set;

/**
 * A pod with scheduling gates ({@code spec.schedulingGates}) is not scheduled until every gate is
 * removed. The queue keeps such pods out ({@link #isGated}); this PreFilter refuses one that
 * reaches a cycle anyway. No cluster event lifts a gate: only an update of the pod's spec
 * requeues it.
 */
public final class SchedulingGates extends BasePlugin implements PreFilterPlugin {

  public static final String NAME = "SchedulingGates";

  public SchedulingGates() {
    super(NAME, Set.of());
  }

  /** Whether the pod still waits for a gate to be removed. */
  public static boolean isGated(Pod pod) {
    return !pod.getSpec().getSchedulingGates().isEmpty();
  }

  @Override
  public Status preFilter(CycleState state, Pod pod) {
    if (!isGated(pod)) {
      return Status.SUCCESS;
    }
    List<String> gates = pod.getSpec().getSchedulingGates().stream().map(PodSchedulingGate::getName).toList();
    return Status.unresolvable("waiting for scheduling gates: " + gates);
  }
}
