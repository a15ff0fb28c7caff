package io.koord4j.device;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Picks the NVLink partition of exactly the requested size for a whole-GPU pod: the free one that
 * leaves the most big partitions free, then the one of higher allocation score, then the lowest.
 */
final class PartitionChooser {
  private PartitionChooser() {}

  /**
   * @param withinRequiredScope whether a partition lies inside the pod's required topology scope
   */
  static Optional<GpuPartition> choose(
      GpuPartitionTable table,
      Set<Integer> freeMinors,
      GpuRequest request,
      Predicate<GpuPartition> withinRequiredScope) {
    List<GpuPartition> ofSize = table.partitionsOfSize(request.count());
    if (ofSize.isEmpty()) {
      return Optional.empty();
    }
    // Restricted pods accept only the best tier; the list is sorted best score first.
    int bestScore = ofSize.get(0).allocationScore();
    Comparator<GpuPartition> preference =
        Comparator.<GpuPartition, int[]>comparing(
                partition -> profileAfter(table, freeMinors, partition), Arrays::compare)
            .thenComparingInt(GpuPartition::allocationScore)
            .thenComparing(Comparator.comparingInt(GpuPartition::firstMinor).reversed());
    return ofSize.stream()
        .filter(p -> request.partitionPolicy() != PartitionAllocatePolicy.RESTRICTED
            || p.allocationScore() == bestScore)
        .filter(p -> p.ringBusBandwidth() >= request.minRingBusBandwidth())
        .filter(p -> GpuPartitionTable.isFree(p, freeMinors))
        .filter(withinRequiredScope)
        .max(preference);
  }

  private static int[] profileAfter(GpuPartitionTable table, Set<Integer> freeMinors, GpuPartition taken) {
    Set<Integer> after = new HashSet<>(freeMinors);
    taken.minors().forEach(after::remove);
    return table.freeProfile(after);
  }
}
