package io.koord4j.scheduler.plugins.deviceshare;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.device.AllocationOutcome;
import io.koord4j.device.GpuAllocation;
import io.koord4j.device.GpuAllocator;
import io.koord4j.device.GpuFragmentation;
import io.koord4j.device.GpuRequest;
import io.koord4j.device.TaskClass;
import io.koord4j.device.WorkloadProfile;
import io.koord4j.device.kube.PodGpus;
import io.koord4j.jobs.PodRequests;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FilterPlugin;
import io.koord4j.scheduler.framework.NodeGpus;
import io.koord4j.scheduler.framework.NodeInfo;
import io.koord4j.scheduler.framework.PreBindPlugin;
import io.koord4j.scheduler.framework.PreFilterPlugin;
import io.koord4j.scheduler.framework.ReservePlugin;
import io.koord4j.scheduler.framework.ScorePlugin;
import io.koord4j.scheduler.framework.Status;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * GPU placement by device, with the pure allocator of {@code io.koord4j.device}: which GPUs of a
 * node (whole or shared, inside an NVLink partition or a required PCIe/NUMA scope) a pod gets.
 *
 * <p>Who counts which GPU resource: DeviceShare owns {@code koordinator.sh/gpu*} everywhere and
 * {@code nvidia.com/gpu} on nodes with a Device object; on nodes without one, {@code
 * nvidia.com/gpu} is an extended resource that NodeResourcesFit counts against allocatable (see
 * {@link #handles}).
 *
 * <p>Scores: on nodes with GPUs and no NVLink partitions every pod, with GPUs or without, goes
 * where it raises the fragmentation of the workload seen so far least ({@link
 * GpuAllocator#fragmentationScore}), which leaves fewer GPUs unallocatable than packing does; on
 * nodes with NVLink partitions GPU pods go where GPUs are fullest and partitions stay intact
 * ({@link GpuAllocator#score}).
 */
public final class DeviceShare extends BasePlugin
    implements PreFilterPlugin, FilterPlugin, ScorePlugin, ReservePlugin, PreBindPlugin {

  public static final String NAME = "DeviceShare";
  private static final CycleState.Key<Demand> DEMAND = new CycleState.Key<>(NAME + "/demand");
  private static final CycleState.Key<GpuAllocation> ALLOCATION =
      new CycleState.Key<>(NAME + "/allocation");
  private static final Set<String> KOORDINATOR_GPU_RESOURCES =
      Set.of(
          WellKnown.KOORD_GPU,
          WellKnown.GPU_CORE,
          WellKnown.GPU_MEMORY,
          WellKnown.GPU_MEMORY_RATIO,
          WellKnown.GPU_SHARED);

  /** The cache's record of the GPUs assumed pods hold. */
  public interface GpuReservations {
    /** Empty when the pod's node has no Device object. */
    Optional<AllocationOutcome> reserve(String podUid, GpuRequest request);

    void release(String podUid);

    static GpuReservations of(
        BiFunction<String, GpuRequest, Optional<AllocationOutcome>> reserve, Consumer<String> release) {
      return new GpuReservations() {
        @Override
        public Optional<AllocationOutcome> reserve(String podUid, GpuRequest request) {
          return reserve.apply(podUid, request);
        }

        @Override
        public void release(String podUid) {
          release.accept(podUid);
        }
      };
    }
  }

  /** Writes an annotation on the pod: the I/O of PreBind. */
  @FunctionalInterface
  public interface PodAnnotator {
    /** @throws RuntimeException when the API server refuses or cannot be reached */
    void annotate(Pod pod, String key, String value);
  }

  /**
   * What the pod asks for; {@code byCount} when it asks in {@code nvidia.com/gpu}, which nodes
   * without a Device object can count.
   */
  private record Demand(GpuRequest request, boolean byCount, long milliCpu, long memoryBytes) {}

  private final GpuReservations reservations;
  private final PodAnnotator annotator;
  private final WorkloadProfile workload;

  /** With a workload profile of its own, learnt from the pods it sees. */
  public DeviceShare(GpuReservations reservations, PodAnnotator annotator) {
    this(reservations, annotator, new WorkloadProfile());
  }

  /** @param workload the pods seen so far, which GPU-sharing pods are placed to leave room for */
  public DeviceShare(GpuReservations reservations, PodAnnotator annotator, WorkloadProfile workload) {
    super(NAME, EnumSet.of(ClusterEvent.NODE_ADDED, ClusterEvent.NODE_UPDATED, ClusterEvent.ASSIGNED_POD_DELETED, ClusterEvent.DEVICE_CHANGED));
    this.reservations = reservations;
    this.annotator = annotator;
    this.workload = workload;
  }

  /** Whether DeviceShare, not NodeResourcesFit, checks {@code resource} on {@code node}. */
  public static boolean handles(String resource, NodeInfo node) {
    return KOORDINATOR_GPU_RESOURCES.contains(resource)
        || (WellKnown.NVIDIA_GPU.equals(resource) && node.gpus().hasDevice());
  }

  @Override
  public Status preFilter(CycleState state, Pod pod) {
    return Status.ifReadable(() -> PodGpus.request(pod), request -> recordDemand(state, pod, request));
  }

  private Status recordDemand(CycleState state, Pod pod, Optional<GpuRequest> request) {
    boolean byCount =
        PodRequests.of(pod.getSpec(), "spec").containsKey(WellKnown.NVIDIA_GPU)
            && request.map(r -> r.requiredScope() == null).orElse(false);
    ResourceVector resources = ResourceQuantities.requestOf(pod);
    long cpu = resources.get(ResourceQuantities.CPU);
    long memory = resources.get(ResourceQuantities.MEMORY);
    workload.observe(pod.getMetadata().getUid(), cpu, memory, request.orElse(null));
    state.put(DEMAND, new Demand(request.orElse(null), byCount, cpu, memory));
    return Status.SUCCESS;
  }

  @Override
  public Status filter(CycleState state, Pod pod, NodeInfo node) {
    Demand demand = state.get(DEMAND);
    if (demand.request() == null) {
      return Status.SUCCESS;
    }
    NodeGpus gpus = node.gpus();
    if (gpus.deviceError() != null) {
      return Status.unresolvable(gpus.deviceError());
    }
    if (gpus.inventory() == null) {
      return demand.byCount()
          ? Status.SUCCESS
          : Status.unresolvable("node(s) had no Device object for GPU placement");
    }
    AllocationOutcome outcome =
        GpuAllocator.allocate(gpus.inventory(), gpus.usage(), demand.request());
    return outcome.isAllocated()
        ? Status.SUCCESS
        : Status.unschedulable(withoutNodeName(outcome.reason(), node.name()));
  }

  @Override
  public long score(CycleState state, Pod pod, NodeInfo node) {
    Demand demand = state.get(DEMAND);
    NodeGpus gpus = node.gpus();
    List<TaskClass> expected = workload.snapshot();
    if (scoresByFragmentation(node) && !expected.isEmpty()) {
      GpuFragmentation.FreeCapacity free =
          GpuFragmentation.FreeCapacity.of(
              gpus.inventory(),
              gpus.usage(),
              node.allocatable().get(ResourceQuantities.CPU) - node.requested().get(ResourceQuantities.CPU),
              node.allocatable().get(ResourceQuantities.MEMORY) - node.requested().get(ResourceQuantities.MEMORY));
      return GpuAllocator.fragmentationScore(
          gpus.inventory(), gpus.usage(), demand.request(), free, demand.milliCpu(), demand.memoryBytes(), expected);
    }
    if (demand.request() == null || gpus.inventory() == null) {
      return 0;
    }
    return GpuAllocator.score(gpus.inventory(), gpus.usage(), demand.request());
  }

  /**
   * Whether every pod on this node, with GPUs or without, is scored by the fragmentation it leaves
   * (a node with GPUs but no NVLink partitions), so that NodeResourcesFit stays out of the way.
   */
  public static boolean scoresByFragmentation(NodeInfo node) {
    NodeGpus gpus = node.gpus();
    return gpus.inventory() != null
        && !gpus.inventory().devices().isEmpty()
        && gpus.inventory().partitionTable().isEmpty();
  }

  @Override
  public Status reserve(CycleState state, Pod pod, String nodeName) {
    Demand demand = state.get(DEMAND);
    if (demand.request() == null) {
      return Status.SUCCESS;
    }
    Optional<AllocationOutcome> outcome =
        reservations.reserve(pod.getMetadata().getUid(), demand.request());
    if (outcome.isEmpty()) {
      return demand.byCount()
          ? Status.SUCCESS
          : Status.unresolvable("node " + nodeName + " has no Device object for GPU placement");
    }
    if (!outcome.get().isAllocated()) {
      return Status.unschedulable(outcome.get().reason());
    }
    state.put(ALLOCATION, outcome.get().allocation().get());
    return Status.SUCCESS;
  }

  @Override
  public void unreserve(CycleState state, Pod pod, String nodeName) {
    reservations.release(pod.getMetadata().getUid());
  }

  /** Writes {@code scheduling.koordinator.sh/device-allocated}, which the node agent reads. */
  @Override
  public Status preBind(CycleState state, Pod pod, String nodeName) {
    GpuAllocation allocation = state.getOrNull(ALLOCATION);
    if (allocation == null) {
      return Status.SUCCESS;
    }
    try {
      annotator.annotate(pod, WellKnown.DEVICE_ALLOCATED, allocation.toAnnotation());
      return Status.SUCCESS;
    } catch (RuntimeException e) {
      return Status.error("writing " + WellKnown.DEVICE_ALLOCATED + " failed: " + e.getMessage());
    }
  }

  /**
   * The allocator names the node in its reasons; the failure message counts nodes per reason, so
   * the name goes.
   */
  private static String withoutNodeName(String reason, String nodeName) {
    String prefix = "node " + nodeName + ": ";
    return reason.startsWith(prefix) ? reason.substring(prefix.length()) : reason;
  }
}
