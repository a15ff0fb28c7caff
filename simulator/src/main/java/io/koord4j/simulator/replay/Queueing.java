package io.koord4j.simulator.replay;

import io.koord4j.queue.core.QueueConfig;
import io.koord4j.queue.core.QueuePolicy;
import java.util.Locale;

/** How the replay's queues treat a unit that cannot be admitted yet. */
public enum Queueing {
  /** Later units that fit go ahead (the Priority policy). */
  PRIORITY,
  /** Later units wait behind it (the Block policy). */
  BLOCK,
  /** The Priority policy with backfill ({@link QueueConfig#backfill}). */
  BACKFILL;

  /** Reads a name as the command line spells it: priority, block or backfill. */
  public static Queueing parse(String name) {
    for (Queueing queueing : values()) {
      if (queueing.label().equals(name)) {
        return queueing;
      }
    }
    throw new IllegalArgumentException("--queueing: '" + name + "' is none of priority, block, backfill");
  }

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  QueueConfig queue(String name) {
    return switch (this) {
      case PRIORITY -> QueueConfig.of(name);
      case BLOCK -> QueueConfig.of(name).withPolicy(QueuePolicy.BLOCK);
      case BACKFILL -> QueueConfig.of(name).withBackfill();
    };
  }
}
