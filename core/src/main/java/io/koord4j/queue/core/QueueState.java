package io.koord4j.queue.core;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.TreeSet;

/** One queue's units by phase. A queue that units name but nobody configured has no config. */
final class QueueState {

  final String name;
  QueueConfig config;
  final TreeSet<QueuedUnit> pending = new TreeSet<>(QueuedUnit.QUEUE_ORDER);
  final TreeSet<QueuedUnit> backingOff = new TreeSet<>(QueuedUnit.QUEUE_ORDER);
  /** Admitted units whose pods do not run yet, earliest admission first. */
  final LinkedHashSet<QueuedUnit> awaitingPods = new LinkedHashSet<>();

  QueueState(String name) {
    this.name = name;
  }

  boolean isConfigured() {
    return config != null;
  }

  boolean isUnused() {
    return config == null && pending.isEmpty() && backingOff.isEmpty() && awaitingPods.isEmpty();
  }

  /** The unit whose pods this queue waits for before admitting more, if it waits at all. */
  Optional<QueuedUnit> podsToWaitFor() {
    if (!config.waitForPodsRunning() || awaitingPods.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(awaitingPods.iterator().next());
  }
}
