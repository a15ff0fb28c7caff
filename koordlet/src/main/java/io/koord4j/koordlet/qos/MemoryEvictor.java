package io.koord4j.koordlet.qos;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.colocation.NodeCapacity;
import io.koord4j.colocation.QosClass;
import io.koord4j.koordlet.metrics.Usage;
import io.koord4j.koordlet.metrics.UsageCollector;
import io.koord4j.koordlet.states.NodeView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Evicts BE pods while node memory use is at or above the NodeSLO's threshold. */
public final class MemoryEvictor {
  public static final String REASON = "EvictPodByNodeMemoryUsage";
  /** Koordinator waits this long after evicting for the memory to come back before it looks again. */
  static final Duration COOL_DOWN = Duration.ofSeconds(4);

  private final NodeView view;
  private final UsageCollector collector;
  private final PodEvictor evictor;
  private final Clock clock;
  private Instant lastEviction = Instant.MIN;

  public MemoryEvictor(NodeView view, UsageCollector collector, PodEvictor evictor, Clock clock) {
    this.view = view;
    this.collector = collector;
    this.evictor = evictor;
    this.clock = clock;
  }

  /** One round; returns the decision taken, empty when eviction is off or there is nothing to go on. */
  public Optional<MemoryEviction.Decision> run() {
    Thresholds thresholds = Thresholds.of(view.nodeSlo());
    Instant now = clock.instant();
    Optional<Node> node = view.node();
    Optional<Usage> used = collector.nodeLatest();
    if (!thresholds.enabled() || now.isBefore(lastEviction.plus(COOL_DOWN)) || node.isEmpty() || used.isEmpty()) {
      return Optional.empty();
    }
    long capacity = NodeCapacity.of(node.get()).memoryBytes();
    MemoryEviction.Decision decision =
        MemoryEviction.decide(
            capacity,
            Math.round(used.get().memoryBytes()),
            thresholds.memoryEvictPercent(),
            thresholds.memoryEvictLowerPercent(),
            candidates());
    boolean any = false;
    for (MemoryEviction.Candidate victim : decision.victims()) {
      any |= evictor.evict(victim.pod(), REASON, message(decision, victim, capacity));
    }
    if (any) {
      lastEviction = now;
    }
    return Optional.of(decision);
  }

  private List<MemoryEviction.Candidate> candidates() {
    Map<String, Usage> usage = collector.podsLatest();
    return view.pods().stream()
        .filter(pod -> QosClass.of(pod) == QosClass.BE)
        .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
        .map(pod -> new MemoryEviction.Candidate(pod, memory(usage, pod)))
        .toList();
  }

  private static long memory(Map<String, Usage> usage, Pod pod) {
    Usage podUsage = usage.get(pod.getMetadata().getUid());
    return podUsage == null ? 0 : Math.round(podUsage.memoryBytes());
  }

  static String message(MemoryEviction.Decision decision, MemoryEviction.Candidate victim, long capacity) {
    return String.format(
        "evicted by koordlet: node memory usage %d%% of %d MiB is at or above the BE eviction threshold %d%%;"
            + " %d MiB must be released to get down to %d%%; this pod uses %d MiB",
        decision.usagePercent(), capacity >> 20, decision.thresholdPercent(), decision.needReleaseBytes() >> 20,
        decision.lowerPercent(), victim.memoryBytes() >> 20);
  }
}
