package io.koord4j.device;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Picks GPUs inside the tightest topology scope that has room: one PCIe switch, else one NUMA node,
 * else the node; never wider than the pod's required scope. Among scopes of one kind it prefers
 * those already in use, so that pods pack and whole scopes stay free.
 */
final class TopologyChooser {
  private static final List<TopologyScope> LEVELS =
      List.of(TopologyScope.PCIE, TopologyScope.NUMA_NODE, TopologyScope.NODE);

  private TopologyChooser() {}

  static Optional<List<GpuDevice>> choose(GpuNodeState state, GpuRequest request) {
    List<GpuDevice> fitting = state.fitting(request);
    for (TopologyScope level : levelsAllowed(request)) {
      Optional<List<GpuDevice>> picked =
          groups(state.healthy(), level).stream()
              .filter(group -> fittingIn(group, fitting).size() >= request.count())
              .max(packingPreference(state, fitting))
              .map(group -> state.pick(fittingIn(group, fitting), request.count()));
      if (picked.isPresent()) {
        return picked;
      }
    }
    return Optional.empty();
  }

  /** Whether {@code devices} sit inside one scope of kind {@code scope} (null: anywhere). */
  static boolean withinOneScope(List<GpuDevice> devices, TopologyScope scope) {
    if (scope == null || scope == TopologyScope.NODE || devices.size() < 2) {
      return true;
    }
    TopologyScope level = scope == TopologyScope.DEVICE ? TopologyScope.PCIE : scope;
    return devices.stream().map(device -> key(device, level)).distinct().count() == 1;
  }

  /** The scope kinds to try, tightest first; a Device scope holds one GPU, so PCIe will do. */
  private static List<TopologyScope> levelsAllowed(GpuRequest request) {
    TopologyScope widest = request.requiredScope() == null ? TopologyScope.NODE : request.requiredScope();
    return LEVELS.stream()
        .filter(level -> level == TopologyScope.PCIE || level.isAtLeastAsTightAs(widest))
        .toList();
  }

  /**
   * Most GPUs in use in the scope first, then in its NUMA node, then fewest fitting GPUs (tightest
   * fit), then lowest minor.
   */
  private static Comparator<List<GpuDevice>> packingPreference(GpuNodeState state, List<GpuDevice> fitting) {
    return Comparator.<List<GpuDevice>>comparingLong(group -> inUse(state, group.stream()))
        .thenComparingLong(group -> inUse(state, sameNumaNode(state, group.get(0))))
        .thenComparing(
            Comparator.<List<GpuDevice>>comparingInt(group -> fittingIn(group, fitting).size()).reversed())
        .thenComparing(
            Comparator.<List<GpuDevice>>comparingInt(group -> group.get(0).minor()).reversed());
  }

  private static long inUse(GpuNodeState state, Stream<GpuDevice> devices) {
    return devices.filter(state::isInUse).count();
  }

  private static Stream<GpuDevice> sameNumaNode(GpuNodeState state, GpuDevice device) {
    return state.healthy().stream()
        .filter(other -> device.numaNode() >= 0 && other.numaNode() == device.numaNode());
  }

  private static List<GpuDevice> fittingIn(List<GpuDevice> group, List<GpuDevice> fitting) {
    return group.stream().filter(fitting::contains).toList();
  }

  /** GPUs by scope, in minor order; a GPU whose place is unknown is a scope of its own. */
  private static Collection<List<GpuDevice>> groups(List<GpuDevice> devices, TopologyScope level) {
    Map<String, List<GpuDevice>> groups = new LinkedHashMap<>();
    for (GpuDevice device : devices) {
      groups.computeIfAbsent(key(device, level), key -> new ArrayList<>()).add(device);
    }
    return groups.values();
  }

  private static String key(GpuDevice device, TopologyScope level) {
    String alone = "gpu " + device.minor();
    return switch (level) {
      case NODE -> "node";
      case NUMA_NODE -> device.numaNode() < 0 ? alone : "numa " + device.numaNode();
      default -> device.pcie() == null ? alone : "numa " + device.numaNode() + " pcie " + device.pcie();
    };
  }
}
