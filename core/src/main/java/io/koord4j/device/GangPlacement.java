package io.koord4j.device;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Decides whether all pods of a gang can be placed at once: first-fit decreasing, biggest pods
 * first, each on the first node (in the given order) with room, reserving on a scratch copy of
 * the cluster so later pods see earlier ones.
 */
public final class GangPlacement {
  /** Node reasons listed in a failure message before the rest are only counted. */
  private static final int REASONS_SHOWN = 3;

  private GangPlacement() {}

  public static GangFeasibility check(List<ClusterNode> cluster, List<PodSetRequest> gang) {
    Attempt now = place(cluster, gang);
    if (now.reason == null) {
      return new GangFeasibility(true, true, now.placements, null);
    }
    boolean fitsWhenEmpty = place(cluster.stream().map(ClusterNode::emptied).toList(), gang).reason == null;
    return new GangFeasibility(false, fitsWhenEmpty, List.of(), now.reason);
  }

  private record Attempt(List<PodPlacement> placements, String reason) {}

  private static Attempt place(List<ClusterNode> cluster, List<PodSetRequest> gang) {
    List<ClusterNode> scratch = new ArrayList<>(cluster);
    List<PodPlacement> placements = new ArrayList<>();
    for (PodSetRequest podSet : biggestFirst(gang)) {
      for (int index = 0; index < podSet.count(); index++) {
        List<String> reasons = new ArrayList<>();
        PodPlacement placement = placeOne(scratch, podSet, index, reasons);
        if (placement == null) {
          return new Attempt(List.of(), failure(podSet, index, reasons));
        }
        placements.add(placement);
      }
    }
    return new Attempt(List.copyOf(placements), null);
  }

  /** Places one pod on the first node with room, updating {@code scratch}; null when none has. */
  private static PodPlacement placeOne(
      List<ClusterNode> scratch, PodSetRequest podSet, int index, List<String> reasons) {
    for (int i = 0; i < scratch.size(); i++) {
      ClusterNode node = scratch.get(i);
      String shortfall = node.free().shortfall(podSet.milliCpu(), podSet.memoryBytes());
      if (shortfall != null) {
        reasons.add("node " + node.name() + ": " + shortfall);
        continue;
      }
      NodeGpuUsage usage = node.gpuUsage();
      GpuAllocation gpus = null;
      if (podSet.gpu() != null) {
        AllocationOutcome outcome = GpuAllocator.allocate(node.gpus(), usage, podSet.gpu());
        if (!outcome.isAllocated()) {
          reasons.add(outcome.reason());
          continue;
        }
        gpus = outcome.allocation().get();
        usage = usage.reserve(gpus);
      }
      NodeResources free = node.free().minus(podSet.milliCpu(), podSet.memoryBytes());
      scratch.set(i, new ClusterNode(node.gpus(), usage, node.allocatable(), free));
      return new PodPlacement(podSet.name(), index, node.name(), gpus);
    }
    return null;
  }

  private static List<PodSetRequest> biggestFirst(List<PodSetRequest> gang) {
    return gang.stream()
        .sorted(
            Comparator.comparingLong(PodSetRequest::gpuPercent)
                .thenComparingLong(PodSetRequest::milliCpu)
                .thenComparingLong(PodSetRequest::memoryBytes)
                .reversed())
        .toList();
  }

  private static String failure(PodSetRequest podSet, int placed, List<String> reasons) {
    StringBuilder message =
        new StringBuilder("pod set " + podSet.name() + ": " + placed + " of " + podSet.count() + " pods placed");
    if (reasons.isEmpty()) {
      message.append("; no nodes");
    }
    reasons.stream().limit(REASONS_SHOWN).forEach(reason -> message.append("; ").append(reason));
    if (reasons.size() > REASONS_SHOWN) {
      message.append("; and ").append(reasons.size() - REASONS_SHOWN).append(" more nodes");
    }
    return message.toString();
  }
}
