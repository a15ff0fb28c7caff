package io.koord4j.device;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the GPUs of one pod on one node, and scores nodes for it.
 *
 * <ol>
 *   <li>Whole-GPU pods on nodes with an NVLink partition table take a free partition of exactly
 *       their size ({@link PartitionChooser}). With node policy Honor or pod policy Restricted
 *       that is the only way; otherwise they fall back to step 2.
 *   <li>Otherwise the tightest topology scope with room ({@link TopologyChooser}).
 *   <li>A pod asking for part of one GPU takes the fullest GPU that still has room for it.
 * </ol>
 */
public final class GpuAllocator {
  private GpuAllocator() {}

  public static AllocationOutcome allocate(NodeGpuInventory inventory, NodeGpuUsage usage, GpuRequest request) {
    GpuNodeState state = new GpuNodeState(inventory, usage);
    String node = "node " + inventory.nodeName() + ": ";
    int healthy = state.healthy().size();
    if (healthy < request.count()) {
      return AllocationOutcome.rejected(
          node + healthy + " healthy GPUs, " + request.count() + " requested");
    }
    Optional<List<GpuDevice>> picked;
    if (request.isWholeGpus()) {
      Set<Integer> free = state.freeMinors();
      if (free.size() < request.count()) {
        return AllocationOutcome.rejected(node + free.size() + " free GPUs, " + request.count() + " requested");
      }
      String partitionRule = partitionRule(inventory, request);
      Optional<GpuPartition> partition =
          PartitionChooser.choose(
              inventory.partitionTable(),
              free,
              request,
              p -> TopologyChooser.withinOneScope(devices(inventory, p.minors()), request.requiredScope()));
      if (partition.isPresent()) {
        return AllocationOutcome.allocated(allocation(inventory, request, partition.get().minors()));
      }
      if (partitionRule != null) {
        return AllocationOutcome.rejected(node + noPartition(inventory, request) + " (" + partitionRule + ")");
      }
      picked = TopologyChooser.choose(state, request);
    } else if (request.count() == 1) {
      List<GpuDevice> fitting = state.fitting(request);
      picked = fitting.isEmpty() ? Optional.empty() : Optional.of(state.pick(fitting, 1));
    } else {
      picked = TopologyChooser.choose(state, request);
    }
    return picked
        .map(devices -> AllocationOutcome.allocated(allocation(request, devices)))
        .orElseGet(() -> AllocationOutcome.rejected(node + noRoom(state, request)));
  }

  /**
   * The placements worth comparing on this node: for a pod asking for part of one GPU, one per GPU
   * with room for it, ascending by minor; otherwise the one {@link #allocate} makes. Empty when
   * the pod does not fit.
   */
  public static List<GpuAllocation> candidates(NodeGpuInventory inventory, NodeGpuUsage usage, GpuRequest request) {
    if (request.isWholeGpus() || request.count() > 1) {
      return allocate(inventory, usage, request).allocation().stream().toList();
    }
    return new GpuNodeState(inventory, usage).fitting(request).stream()
        .map(device -> allocation(request, List.of(device)))
        .toList();
  }

  /**
   * How well the pod fits the node, 0 (not at all) to 100: half for how full the node's GPUs are
   * after placing it (bin-packing), half for how intact its NVLink partitions stay (the largest
   * free partition against the largest its free GPUs could form).
   */
  public static int score(NodeGpuInventory inventory, NodeGpuUsage usage, GpuRequest request) {
    Optional<GpuAllocation> allocation = allocate(inventory, usage, request).allocation();
    if (allocation.isEmpty()) {
      return 0;
    }
    GpuNodeState after = new GpuNodeState(inventory, usage.reserve(allocation.get()));
    return (int) Math.round(50 * fullness(after) + 50 * partitionIntactness(after));
  }

  /**
   * The score of a pod on a node without NVLink partitions: how little placing it here raises the
   * node's fragmentation for the workload to come ({@link GpuFragmentation}), 0 to 100 with 50 for
   * no change and one point per two GPU percent, then up to one point more for a fuller node, so
   * that among nodes the workload sees alike the pod packs. 0 when its GPUs do not fit.
   *
   * @param request null for a pod without GPUs, which still takes CPU and memory GPU pods need
   * @param free the node's free GPUs, CPU and memory before the pod
   */
  public static int fragmentationScore(
      NodeGpuInventory inventory,
      NodeGpuUsage usage,
      GpuRequest request,
      GpuFragmentation.FreeCapacity free,
      long podMilliCpu,
      long podMemoryBytes,
      List<TaskClass> workload) {
    NodeGpuUsage afterUsage = usage;
    if (request != null) {
      Optional<GpuAllocation> allocation = allocate(inventory, usage, request).allocation();
      if (allocation.isEmpty()) {
        return 0;
      }
      afterUsage = usage.reserve(allocation.get());
    }
    GpuFragmentation.FreeCapacity after =
        GpuFragmentation.FreeCapacity.of(
            inventory, afterUsage, free.milliCpu() - podMilliCpu, free.memoryBytes() - podMemoryBytes);
    double growth = GpuFragmentation.of(after, workload) - GpuFragmentation.of(free, workload);
    double fullness = fullness(new GpuNodeState(inventory, afterUsage));
    long score = Math.round(50 - growth / 2 + fullness);
    return (int) Math.max(0, Math.min(100, score));
  }

  /** Why a partition is a must, or null when it is only preferred. */
  private static String partitionRule(NodeGpuInventory inventory, GpuRequest request) {
    if (request.partitionPolicy() == PartitionAllocatePolicy.RESTRICTED) {
      return "Restricted";
    }
    return inventory.partitionPolicy() == PartitionPolicy.HONOR ? "node policy Honor" : null;
  }

  private static String noPartition(NodeGpuInventory inventory, GpuRequest request) {
    if (inventory.partitionTable().isEmpty()) {
      return "no NVLink partition table";
    }
    String size = request.count() + (request.count() == 1 ? " GPU" : " GPUs");
    return inventory.partitionTable().partitionsOfSize(request.count()).isEmpty()
        ? "no NVLink partition of " + size + " in the partition table"
        : "no free NVLink partition of " + size;
  }

  private static String noRoom(GpuNodeState state, GpuRequest request) {
    String room = request.isWholeGpus() ? "free GPUs" : "GPUs with room for " + request.shareDescription();
    if (request.requiredScope() != null && request.requiredScope() != TopologyScope.NODE) {
      return "no " + request.requiredScope().noun() + " with " + request.count() + " " + room
          + " (required scope " + request.requiredScope().jsonName() + ")";
    }
    return state.fitting(request).size() + " " + room + ", " + request.count() + " requested";
  }

  private static GpuAllocation allocation(NodeGpuInventory inventory, GpuRequest request, List<Integer> minors) {
    return allocation(request, devices(inventory, minors));
  }

  private static List<GpuDevice> devices(NodeGpuInventory inventory, List<Integer> minors) {
    return minors.stream().map(minor -> inventory.device(minor).orElseThrow()).toList();
  }

  private static GpuAllocation allocation(GpuRequest request, List<GpuDevice> devices) {
    return new GpuAllocation(
        devices.stream()
            .map(device -> new AllocatedGpu(device.minor(), device.uuid(), request.shareOn(device)))
            .toList());
  }

  private static double fullness(GpuNodeState state) {
    return state.healthy().stream().mapToInt(state::fullnessPercent).average().orElse(0) / 100;
  }

  private static double partitionIntactness(GpuNodeState state) {
    Set<Integer> free = state.freeMinors();
    int ideal = state.partitionTable().largestSizeUpTo(free.size());
    return ideal == 0 ? 1 : (double) state.partitionTable().largestFreeSize(free) / ideal;
  }
}
