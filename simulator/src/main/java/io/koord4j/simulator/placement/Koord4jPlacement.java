package io.koord4j.simulator.placement;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.device.GpuAllocation;
import io.koord4j.device.WorkloadProfile;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.NodeGpus;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.DefaultBinder;
import io.koord4j.scheduler.plugins.NodeResourcesFit;
import io.koord4j.scheduler.plugins.deviceshare.DeviceShare;
import io.koord4j.simulator.cluster.SimNode;
import io.koord4j.simulator.trace.NodeSpec;
import io.koord4j.simulator.trace.TaskShape;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * koord-scheduler's placement: its scheduling framework with the node-scoring plugins of its
 * profile that matter on a trace's nodes (NodeResourcesFit and DeviceShare, default weights), and
 * the GPUs the core's allocator picks, as DeviceShare's Reserve does. DeviceShare learns the
 * workload from the tasks that arrive, as it does from the pods it is asked to place.
 */
final class Koord4jPlacement implements PlacementPolicy {
  /** The trace's nodes have no pod limit; this one never binds. */
  private static final String POD_SLOTS = "10000";

  private final WorkloadProfile workload = new WorkloadProfile();
  private final Framework framework =
      new Framework(
          List.of(
              new NodeResourcesFit(),
              new DeviceShare(
                  DeviceShare.GpuReservations.of((uid, request) -> Optional.empty(), uid -> {}),
                  (pod, key, value) -> {},
                  workload),
              new DefaultBinder((pod, node) -> {})),
          Map.of(),
          null,
          1,
          new WaitingPods(null));
  /** Each shape's pod and its cycle state after its last PreFilter, which Filter and Score only read. */
  private final Map<TaskShape, Cycle> cycles = new HashMap<>();
  private TaskShape lastArrived;
  private Cycle lastCycle;
  /** Each node shape as the framework sees it with nothing on it; parsed once. */
  private final Map<NodeSpec, NodeInfo> idleShapes = new HashMap<>();
  /** The same by node, so that evaluations skip hashing the node's shape. */
  private final Map<NodeSpec, NodeInfo> idleNodes = new IdentityHashMap<>();
  /**
   * Each node state as the framework sees it, built once however many task shapes are evaluated
   * on it; a state's entry goes when no node is in that state any more (nodes are immutable).
   */
  private final Map<SimNode, NodeInfo> states = new WeakHashMap<>();

  @Override
  public String name() {
    return "koord4j";
  }

  @Override
  public Optional<Scored> evaluate(SimNode node, TaskShape task) {
    // Cheap certain rejections first; the framework's filters decide the rest.
    if (!node.admitsOutsideGpus(task)) {
      return Optional.empty();
    }
    // The placer evaluates one task on every node group in a row: skip the map for it.
    Cycle cycle = task == lastArrived ? lastCycle : cycles.get(task);
    if (!cycle.preFiltered()) {
      return Optional.empty();
    }
    Pod pod = cycle.pod();
    CycleState state = cycle.state();
    NodeInfo info = nodeInfo(node);
    Status status = framework.filterAll(state, pod, List.of(info)).get(info.name());
    if (!status.isSuccess()) {
      return Optional.empty();
    }
    long score = framework.totalScores(state, pod, List.of(info))[0];
    List<GpuAllocation> gpus = node.allocatorChoice(task);
    return gpus.isEmpty() ? Optional.empty() : Optional.of(new Scored(score, gpus.get(0)));
  }

  /**
   * PreFilter runs once per arriving pod, as in the scheduler: DeviceShare learns the workload from
   * it. The simulated pods carry no uid, so each arrival counts; the placer announces each pod once.
   */
  @Override
  public void arrived(TaskShape task) {
    lastArrived = task;
    lastCycle = preFilter(task);
    cycles.put(task, lastCycle);
  }

  @Override
  public long version() {
    return workload.version();
  }

  private record Cycle(Pod pod, CycleState state, boolean preFiltered) {}

  private Cycle preFilter(TaskShape task) {
    Cycle last = cycles.get(task);
    Pod pod = last == null ? pod(task) : last.pod();
    CycleState state = new CycleState();
    return new Cycle(pod, state, framework.preFilter(state, pod).isSuccess());
  }

  private NodeInfo nodeInfo(SimNode node) {
    return states.computeIfAbsent(node, this::buildNodeInfo);
  }

  private NodeInfo buildNodeInfo(SimNode node) {
    NodeInfo idle = idleNodes.computeIfAbsent(
        node.spec(), spec -> idleShapes.computeIfAbsent(spec.shape(), shape -> NodeInfo.of(node(shape))));
    ResourceVector requested =
        ResourceVector.of(
            ResourceQuantities.CPU, node.held().milliCpuUsed(),
            ResourceQuantities.MEMORY, node.held().memoryMibUsed() << 20);
    return idle
        .withUsage(requested, node.held().hostedGpuMilli().size())
        .withGpus(new NodeGpus(node.inventory(), node.gpus(), null));
  }

  private static Node node(NodeSpec spec) {
    Map<String, Quantity> allocatable = new LinkedHashMap<>();
    allocatable.put(ResourceQuantities.CPU, new Quantity(spec.milliCpu() + "m"));
    allocatable.put(ResourceQuantities.MEMORY, new Quantity(spec.memoryMib() + "Mi"));
    allocatable.put(ResourceQuantities.PODS, new Quantity(POD_SLOTS));
    allocatable.put(WellKnown.NVIDIA_GPU, new Quantity(Integer.toString(spec.gpus())));
    return new NodeBuilder()
        .withNewMetadata().withName("node").endMetadata()
        .withNewStatus().withAllocatable(allocatable).endStatus()
        .build();
  }

  private static Pod pod(TaskShape task) {
    Map<String, Quantity> requests = new LinkedHashMap<>();
    requests.put(ResourceQuantities.CPU, new Quantity(task.milliCpu() + "m"));
    requests.put(ResourceQuantities.MEMORY, new Quantity(task.memoryMib() + "Mi"));
    if (task.isGpuShare()) {
      String percent = Integer.toString(SimNode.sharePercent(task));
      requests.put(WellKnown.GPU_CORE, new Quantity(percent));
      requests.put(WellKnown.GPU_MEMORY_RATIO, new Quantity(percent));
    } else if (task.gpuCount() > 0) {
      requests.put(WellKnown.NVIDIA_GPU, new Quantity(Integer.toString(task.gpuCount())));
    }
    return new PodBuilder()
        .withNewMetadata().withName("task").withNamespace("simulation").endMetadata()
        .withNewSpec()
        .addNewContainer().withName("task").withNewResources().withRequests(requests).withLimits(requests)
        .endResources().endContainer()
        .endSpec()
        .build();
  }
}
