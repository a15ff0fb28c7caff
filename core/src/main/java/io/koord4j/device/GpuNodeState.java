package io.koord4j.device;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** One node's GPUs together with what pods hold of them, as the choosers see it. */
final class GpuNodeState {
  private final NodeGpuInventory inventory;
  private final NodeGpuUsage usage;
  private final List<GpuDevice> healthy;

  GpuNodeState(NodeGpuInventory inventory, NodeGpuUsage usage) {
    this.inventory = inventory;
    this.usage = usage;
    this.healthy = inventory.healthyDevices();
  }

  GpuPartitionTable partitionTable() {
    return inventory.partitionTable();
  }

  List<GpuDevice> healthy() {
    return healthy;
  }

  /** Healthy GPUs with room for the request's share, ascending by minor. */
  List<GpuDevice> fitting(GpuRequest request) {
    return healthy.stream()
        .filter(device -> usage.of(device.minor()).plus(request.shareOn(device)).fitsOn(device))
        .toList();
  }

  Set<Integer> freeMinors() {
    return healthy.stream()
        .map(GpuDevice::minor)
        .filter(usage::isFree)
        .collect(Collectors.toCollection(HashSet::new));
  }

  boolean isInUse(GpuDevice device) {
    return !usage.isFree(device.minor());
  }

  int fullnessPercent(GpuDevice device) {
    return usage.of(device.minor()).fullnessPercent(device);
  }

  /**
   * Picks {@code count} of {@code candidates} one at a time, each time the GPU that keeps the most
   * big partitions free, then the fullest one (bin-packing), then the lowest minor.
   */
  List<GpuDevice> pick(List<GpuDevice> candidates, int count) {
    Set<Integer> free = freeMinors();
    List<GpuDevice> left = new ArrayList<>(candidates);
    List<GpuDevice> picked = new ArrayList<>();
    while (picked.size() < count) {
      GpuDevice best = left.stream().max(preference(free)).orElseThrow();
      left.remove(best);
      picked.add(best);
      free.remove(best.minor());
    }
    return picked;
  }

  private Comparator<GpuDevice> preference(Set<Integer> free) {
    Comparator<GpuDevice> keepsPartitions =
        (a, b) -> Arrays.compare(profileWithout(free, a), profileWithout(free, b));
    return keepsPartitions
        .thenComparingInt(this::fullnessPercent)
        .thenComparing(Comparator.comparingInt(GpuDevice::minor).reversed());
  }

  private int[] profileWithout(Set<Integer> free, GpuDevice device) {
    Set<Integer> after = new HashSet<>(free);
    after.remove(device.minor());
    return partitionTable().freeProfile(after);
  }
}
