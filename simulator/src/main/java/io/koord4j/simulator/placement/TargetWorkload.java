package io.koord4j.simulator.placement;

import io.koord4j.device.TaskClass;
import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.TaskShape;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The task classes of a trace and their shares: the workload FGD expects to come. */
public final class TargetWorkload {
  private TargetWorkload() {}

  public static List<TaskClass> of(List<TaskShape> tasks) {
    Map<TaskShape, Integer> counts = new LinkedHashMap<>();
    tasks.forEach(task -> counts.merge(task, 1, Integer::sum));
    return counts.entrySet().stream()
        .map(entry -> taskClass(entry.getKey(), (double) entry.getValue() / tasks.size()))
        .toList();
  }

  private static TaskClass taskClass(TaskShape task, double weight) {
    int percent = task.gpuCount() == 0 ? 0 : task.isGpuShare() ? SimNode.sharePercent(task) : 100;
    return new TaskClass(task.milliCpu(), task.memoryMib() << 20, task.gpuCount(), percent, weight);
  }
}
