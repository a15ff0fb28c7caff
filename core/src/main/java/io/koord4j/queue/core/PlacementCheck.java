package io.koord4j.queue.core;

import java.util.Optional;

/**
 * Whether a unit's gang could ever be placed on the cluster's nodes. The controller answers with
 * the scheduler's own filters; the core only asks, so that a gang no node could ever hold waits
 * instead of taking quota its pods cannot use.
 */
@FunctionalInterface
public interface PlacementCheck {
  /** Places every gang: the core judges quota only. */
  PlacementCheck ANYWHERE = unitId -> Optional.empty();

  /** Why the unit's pods cannot all be placed even on empty nodes; empty when they can. */
  Optional<String> neverFits(String unitId);
}
