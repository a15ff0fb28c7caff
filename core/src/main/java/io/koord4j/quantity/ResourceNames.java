package io.koord4j.quantity;

import io.koord4j.api.WellKnown;
import java.util.Map;
import java.util.TreeMap;

/**
 * Koordinator's deprecated resource names and the names that replaced them. Pods, Devices and
 * {@code device-allocated} annotations written for older Koordinator versions use the {@code
 * kubernetes.io/gpu*} device names and the {@code koordinator.sh/batch-*} batch names; koord4j
 * reads them once, here, and computes and writes with the current names only.
 */
public final class ResourceNames {
  private ResourceNames() {}

  /** Deprecated name to current name, as Koordinator maps them. */
  public static final Map<String, String> DEPRECATED =
      Map.of(
          "kubernetes.io/gpu", WellKnown.KOORD_GPU,
          "kubernetes.io/gpu-core", WellKnown.GPU_CORE,
          "kubernetes.io/gpu-memory", WellKnown.GPU_MEMORY,
          "kubernetes.io/gpu-memory-ratio", WellKnown.GPU_MEMORY_RATIO,
          "kubernetes.io/rdma", "koordinator.sh/rdma",
          "kubernetes.io/fpga", "koordinator.sh/fpga",
          "koordinator.sh/batch-cpu", WellKnown.BATCH_CPU,
          "koordinator.sh/batch-memory", WellKnown.BATCH_MEMORY);

  /** The current name of a resource; names that are not deprecated are returned as they are. */
  public static String current(String resource) {
    return DEPRECATED.getOrDefault(resource, resource);
  }

  /**
   * The list with every deprecated name replaced by its current name. When both are present the
   * current one is kept, as in Koordinator, and the deprecated one is dropped.
   */
  public static <V> Map<String, V> current(Map<String, V> resources) {
    if (resources == null || resources.keySet().stream().noneMatch(DEPRECATED::containsKey)) {
      return resources;
    }
    Map<String, V> out = new TreeMap<>(resources);
    DEPRECATED.forEach(
        (deprecated, current) -> {
          V value = out.remove(deprecated);
          if (value != null) {
            out.putIfAbsent(current, value);
          }
        });
    return out;
  }
}
