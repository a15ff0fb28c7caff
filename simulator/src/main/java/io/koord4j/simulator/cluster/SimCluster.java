package io.koord4j.simulator.cluster;

import io.koord4j.device.GpuAllocation;
import io.koord4j.device.GpuDevice;
import io.koord4j.device.GpuPartitionTable;
import io.koord4j.device.NodeGpuInventory;
import io.koord4j.device.PartitionPolicy;
import io.koord4j.simulator.trace.NodeSpec;
import io.koord4j.simulator.trace.TaskShape;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The nodes of a simulated cluster and what their tasks hold. Nodes in the same state (same shape,
 * same use) are kept together in a {@link NodeGroup}, so a placement policy scores each state once
 * however many nodes share it.
 */
public final class SimCluster {
  /** Tasks ask for shares of a GPU, so one memory size for every model changes no placement. */
  static final long GPU_MEMORY_BYTES = 16L << 30;

  private final SimNode[] nodes;
  private final Map<NodeState, NodeGroup> groups = new LinkedHashMap<>();
  private final Map<TaskShape, Integer> shapeNumbers = new HashMap<>();
  private final long gpuCapacityMilli;
  private long gpuAllocatedMilli;

  /** What makes two nodes place alike. */
  private record NodeState(NodeSpec shape, SimNode.Held held) {
    static NodeState of(SimNode node) {
      return new NodeState(node.spec().shape(), node.held());
    }
  }

  public SimCluster(List<NodeSpec> specs) {
    nodes = new SimNode[specs.size()];
    Map<NodeSpec, GpuChoices> choicesByShape = new HashMap<>();
    long capacity = 0;
    for (int i = 0; i < nodes.length; i++) {
      NodeSpec spec = specs.get(i);
      GpuChoices choices = choicesByShape.computeIfAbsent(spec.shape(), shape -> new GpuChoices());
      nodes[i] = new SimNode(i, spec, choices, inventory(spec), SimNode.Held.NOTHING);
      groupOf(nodes[i]).add(i);
      capacity += spec.gpus() * 1000L;
    }
    gpuCapacityMilli = capacity;
  }

  private static NodeGpuInventory inventory(NodeSpec spec) {
    List<GpuDevice> devices =
        IntStream.range(0, spec.gpus())
            .mapToObj(minor -> new GpuDevice(minor, "gpu-" + minor, true, GPU_MEMORY_BYTES, null, -1, -1))
            .toList();
    return new NodeGpuInventory(spec.name(), devices, GpuPartitionTable.NONE, PartitionPolicy.PREFER, spec.model());
  }

  public int size() {
    return nodes.length;
  }

  public SimNode node(int index) {
    return nodes[index];
  }

  /** The groups of nodes in equal states, oldest state first. */
  public Collection<NodeGroup> groups() {
    return groups.values();
  }

  /** A small number per distinct task shape, under which node groups keep their evaluations. */
  public int shapeNumber(TaskShape task) {
    return shapeNumbers.computeIfAbsent(task, shape -> shapeNumbers.size());
  }

  /** Drops what every group kept of a policy's evaluations. */
  public void forgetEvaluations() {
    groups.values().forEach(NodeGroup::forget);
  }

  public long gpuCapacityMilli() {
    return gpuCapacityMilli;
  }

  /** The GPU thousandths tasks hold. */
  public long gpuAllocatedMilli() {
    return gpuAllocatedMilli;
  }

  public void bind(int index, TaskShape task, GpuAllocation gpus) {
    replace(nodes[index].with(task, gpus));
    gpuAllocatedMilli += task.gpuDemandMilli();
  }

  public void release(int index, TaskShape task, GpuAllocation gpus) {
    replace(nodes[index].without(task, gpus));
    gpuAllocatedMilli -= task.gpuDemandMilli();
  }

  private void replace(SimNode updated) {
    NodeState old = NodeState.of(nodes[updated.index()]);
    NodeGroup group = groups.get(old);
    group.remove(updated.index());
    if (group.isEmpty()) {
      groups.remove(old);
    }
    nodes[updated.index()] = updated;
    groupOf(updated).add(updated.index());
  }

  private NodeGroup groupOf(SimNode node) {
    return groups.computeIfAbsent(NodeState.of(node), state -> new NodeGroup(this));
  }
}
