package io.koord4j.koordlet.qos;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.colocation.SystemPods;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Koordinator's BE memory eviction; no I/O. When node memory use reaches {@code
 * memoryEvictThresholdPercent} of capacity, BE pods are evicted until the memory they use covers
 * the way down to {@code memoryEvictLowerPercent} (default: threshold − 2): lowest priority first,
 * then the largest user first. Pods that {@link SystemPods#isEvictionProtected} are never victims,
 * whatever the caller passes.
 */
public final class MemoryEviction {
  private MemoryEviction() {}

  static final long RELEASE_BUFFER_PERCENT = 2;

  /** A BE pod and the memory (bytes) it uses now, 0 when unmeasured. */
  public record Candidate(Pod pod, long memoryBytes) {}

  /** Why pods are evicted, in figures an event can name. */
  public record Decision(
      long usagePercent, long thresholdPercent, long lowerPercent, long needReleaseBytes, List<Candidate> victims) {
    public boolean evicts() {
      return !victims.isEmpty();
    }
  }

  public static Decision decide(
      long capacityBytes, long usedBytes, long thresholdPercent, Long lowerPercent, List<Candidate> candidates) {
    if (thresholdPercent < 0 || thresholdPercent > 100) {
      throw new IllegalArgumentException(
          "resourceUsedThresholdWithBE.memoryEvictThresholdPercent must be within 0..100, not " + thresholdPercent);
    }
    long lower = lowerPercent != null ? lowerPercent : thresholdPercent - RELEASE_BUFFER_PERCENT;
    if (lower >= thresholdPercent) {
      throw new IllegalArgumentException(
          "resourceUsedThresholdWithBE.memoryEvictLowerPercent (" + lower
              + ") must be below memoryEvictThresholdPercent (" + thresholdPercent + ")");
    }
    long usagePercent = capacityBytes <= 0 ? 0 : usedBytes * 100 / capacityBytes;
    if (usagePercent < thresholdPercent) {
      return new Decision(usagePercent, thresholdPercent, lower, 0, List.of());
    }
    long needRelease = capacityBytes * (usagePercent - lower) / 100;
    List<Candidate> ordered = new ArrayList<>(candidates);
    ordered.removeIf(candidate -> SystemPods.isEvictionProtected(candidate.pod()));
    ordered.sort(EVICTION_ORDER);
    List<Candidate> victims = new ArrayList<>();
    long released = 0;
    for (Candidate candidate : ordered) {
      if (released >= needRelease) {
        break;
      }
      victims.add(candidate);
      released += candidate.memoryBytes();
    }
    return new Decision(usagePercent, thresholdPercent, lower, needRelease, victims);
  }

  /** Lower priority first (when both have one), then more memory, then name descending. */
  static final Comparator<Candidate> EVICTION_ORDER =
      (a, b) -> {
        Integer pa = a.pod().getSpec().getPriority();
        Integer pb = b.pod().getSpec().getPriority();
        if (pa != null && pb != null && !pa.equals(pb)) {
          return Integer.compare(pa, pb);
        }
        if (a.memoryBytes() != b.memoryBytes()) {
          return Long.compare(b.memoryBytes(), a.memoryBytes());
        }
        return b.pod().getMetadata().getName().compareTo(a.pod().getMetadata().getName());
      };
}
