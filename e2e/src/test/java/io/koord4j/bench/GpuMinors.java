package io.koord4j.bench;

import io.koord4j.device.GpuAllocation;
import io.koord4j.device.GpuAllocator;
import io.koord4j.device.GpuRequest;
import io.koord4j.device.NodeGpuInventory;
import io.koord4j.device.NodeGpuUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Which GPUs of a node pods placed by count get, replayed in bind order, and whether a set of
 * GPUs is one NVLink partition of the node's table.
 */
final class GpuMinors {
  private GpuMinors() {}

  /** Kubelet's order without a device plugin preference: the lowest free minors. */
  static List<List<Integer>> lowestFree(NodeGpuInventory node, List<Integer> gpusInBindOrder) {
    TreeSet<Integer> free = new TreeSet<>();
    node.healthyDevices().forEach(gpu -> free.add(gpu.minor()));
    List<List<Integer>> out = new ArrayList<>();
    for (int count : gpusInBindOrder) {
      List<Integer> taken = new ArrayList<>();
      for (int i = 0; i < count && !free.isEmpty(); i++) {
        taken.add(free.pollFirst());
      }
      out.add(taken);
    }
    return out;
  }

  /** koord4j's allocator on the same node choice: what a topology-aware device plugin could do. */
  static List<List<Integer>> best(NodeGpuInventory node, List<Integer> gpusInBindOrder) {
    NodeGpuUsage usage = NodeGpuUsage.NONE;
    List<List<Integer>> out = new ArrayList<>();
    for (int count : gpusInBindOrder) {
      GpuAllocation allocation =
          GpuAllocator.allocate(node, usage, GpuRequest.wholeGpus(count))
              .allocation()
              .orElseThrow(() -> new IllegalStateException("node " + node.nodeName() + " was overcommitted"));
      usage = usage.reserve(allocation);
      out.add(allocation.minors());
    }
    return out;
  }

  static boolean isOnePartition(NodeGpuInventory node, List<Integer> minors) {
    List<Integer> sorted = minors.stream().sorted().toList();
    return node.partitionTable().partitionsOfSize(sorted.size()).stream()
        .anyMatch(partition -> partition.minors().equals(sorted));
  }
}
