package io.koord4j.simulator.cluster;

import io.koord4j.device.GpuAllocation;
import io.koord4j.device.GpuAllocator;
import io.koord4j.device.GpuRequest;
import io.koord4j.device.NodeGpuInventory;
import io.koord4j.device.NodeGpuUsage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The core allocator's choices on the nodes of one shape, kept by GPU use and request: the
 * allocator's answer depends on nothing else, and many nodes of a shape pass through the same GPU
 * use while their CPU and memory differ. One run's cluster owns it; not thread-safe.
 */
final class GpuChoices {
  private record Key(NodeGpuUsage usage, GpuRequest request) {}

  private final Map<Key, List<GpuAllocation>> choices = new HashMap<>();

  List<GpuAllocation> of(NodeGpuInventory inventory, NodeGpuUsage usage, GpuRequest request) {
    return choices.computeIfAbsent(
        new Key(usage, request), key -> GpuAllocator.allocate(inventory, usage, request).allocation().stream().toList());
  }
}
