package io.koord4j.device;

import java.util.Optional;

/** The GPUs a pod gets on a node, or why it gets none there. */
public record AllocationOutcome(Optional<GpuAllocation> allocation, String reason) {

  static AllocationOutcome allocated(GpuAllocation allocation) {
    return new AllocationOutcome(Optional.of(allocation), null);
  }

  public static AllocationOutcome rejected(String reason) {
    return new AllocationOutcome(Optional.empty(), reason);
  }

  public boolean isAllocated() {
    return allocation.isPresent();
  }
}
