package io.koord4j.simulator.placement;

import io.koord4j.device.TaskClass;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The placement policies the simulator knows, by the names the command line uses. */
public final class Policies {
  private static final Map<String, Function<List<TaskClass>, PlacementPolicy>> BY_NAME =
      Map.of(
          "koord4j", workload -> new Koord4jPlacement(),
          "fgd", Fgd::new,
          "bestfit", workload -> new BestFit(),
          "dotprod", workload -> new DotProduct(),
          "gpupacking", workload -> new GpuPacking(),
          "gpuclustering", workload -> new GpuClustering(),
          "random", workload -> new RandomFit());

  /** In the order reports list them. */
  public static final List<String> NAMES =
      List.of("koord4j", "fgd", "bestfit", "dotprod", "gpupacking", "gpuclustering", "random");

  private Policies() {}

  /**
   * A fresh policy (policies may cache per run).
   *
   * @param workload the target workload, for the policies that look ahead (FGD)
   * @throws IllegalArgumentException naming the known policies
   */
  public static PlacementPolicy create(String name, List<TaskClass> workload) {
    Function<List<TaskClass>, PlacementPolicy> factory = BY_NAME.get(name);
    if (factory == null) {
      throw new IllegalArgumentException(
          "--policies: unknown policy '" + name + "'; known: " + String.join(",", NAMES));
    }
    return factory.apply(workload);
  }
}
