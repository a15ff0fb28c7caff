package io.koord4j.webhook.admission;

import java.util.Map;
import java.util.Set;

/** Queues that exist, per namespace, for tests. */
public record FixedQueues(Map<String, Set<String>> byNamespace) implements QueueLookup {
  public static final FixedQueues NONE = new FixedQueues(Map.of());

  public static FixedQueues in(String namespace, String... queues) {
    return new FixedQueues(Map.of(namespace, Set.of(queues)));
  }

  @Override
  public boolean exists(String queue) {
    return byNamespace.values().stream().anyMatch(queues -> queues.contains(queue));
  }

  @Override
  public boolean existsIn(String namespace, String queue) {
    return namespace != null && byNamespace.getOrDefault(namespace, Set.of()).contains(queue);
  }
}
