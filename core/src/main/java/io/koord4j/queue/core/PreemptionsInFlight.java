package io.koord4j.queue.core;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Preemptions decided but not yet confirmed by the controller. A victim is never chosen twice,
 * and a quota with preemptions in flight starts no new ones: it first sees what the victims'
 * release buys, so one shortage never evicts more than it needs.
 */
final class PreemptionsInFlight {

  private record Claim(String preemptor, String quota) {}

  private static final Claim ORPHAN = new Claim(null, null);

  private final Map<String, Claim> claimByVictim = new HashMap<>();
  private final Map<String, Set<String>> victimsByPreemptor = new HashMap<>();
  private final Map<String, Integer> victimCountByQuota = new HashMap<>();
  private int orphans;

  void start(String preemptor, String quota, List<String> victims) {
    for (String victim : victims) {
      claimByVictim.put(victim, new Claim(preemptor, quota));
      victimsByPreemptor.computeIfAbsent(preemptor, p -> new LinkedHashSet<>()).add(victim);
      victimCountByQuota.merge(quota, 1, Integer::sum);
    }
  }

  /**
   * A victim chosen before a restart, whose preemptor is no longer known: it is never chosen
   * again, and until it settles no quota starts new preemptions, since any of them may be the one
   * its release is for.
   */
  void adopt(String victim) {
    if (claimByVictim.put(victim, ORPHAN) == null) {
      orphans++;
    }
  }

  /** The victim released its quota (requeued, finished or removed). */
  void settle(String victim) {
    Claim claim = claimByVictim.remove(victim);
    if (claim == ORPHAN) {
      orphans--;
      return;
    }
    if (claim == null) {
      return;
    }
    Set<String> victims = victimsByPreemptor.get(claim.preemptor());
    victims.remove(victim);
    if (victims.isEmpty()) {
      victimsByPreemptor.remove(claim.preemptor());
    }
    victimCountByQuota.computeIfPresent(claim.quota(), (q, n) -> n == 1 ? null : n - 1);
  }

  boolean isVictim(String unit) {
    return claimByVictim.containsKey(unit);
  }

  boolean isBusy(String quota) {
    return orphans > 0 || victimCountByQuota.containsKey(quota);
  }

  /** Victims still holding quota on behalf of {@code preemptor}, in decision order. */
  List<String> victimsOf(String preemptor) {
    return List.copyOf(victimsByPreemptor.getOrDefault(preemptor, Set.of()));
  }
}
