package io.koord4j.queue.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Preemptions decided but not yet confirmed by the controller. A victim is never chosen twice,
 * and a quota with preemptions in flight starts no new ones: it first sees what the victims'
 * release buys, so one shortage never evicts more than it needs.
 *
 * <p>A victim that has not stopped {@link #TIMEOUT} after it was chosen no longer holds anything
 * up: it is reported once ({@link #expire}), its preemptor may choose other victims, and it is
 * still never chosen again.
 */
final class PreemptionsInFlight {

  /** How long a victim may take to stop before preemption moves on without it. */
  static final Duration TIMEOUT = Duration.ofMinutes(5);

  /**
   * @param preemptor null for a victim adopted after a restart
   * @param scope the preemptor's quota, or for an adopted victim its own quota
   * @param since when the victim was chosen; null until the first pass that sees an adoption
   */
  private record Claim(String preemptor, String scope, Instant since) {
    boolean isOrphan() {
      return preemptor == null;
    }
  }

  private final Map<String, Claim> claimByVictim = new HashMap<>();
  private final Map<String, Set<String>> victimsByPreemptor = new HashMap<>();
  private final Map<String, Integer> victimCountByQuota = new HashMap<>();
  private final Map<String, Integer> orphanCountByQuota = new HashMap<>();
  /** Victims that timed out: never chosen again, holding nothing up. */
  private final Set<String> stuck = new HashSet<>();

  void start(String preemptor, String quota, List<String> victims, Instant now) {
    for (String victim : victims) {
      claim(victim, new Claim(preemptor, quota, now));
    }
  }

  /**
   * A victim chosen before a restart, whose preemptor is no longer known: it is never chosen
   * again, and until it settles no quota of the victim's tree (under the same top quota) starts
   * new preemptions, since any of them may be the one its release is for.
   */
  void adopt(String victim, String quota) {
    if (!isVictim(victim)) {
      claim(victim, new Claim(null, quota, null));
    }
  }

  /** The victim released its quota (requeued, finished or removed). */
  void settle(String victim) {
    stuck.remove(victim);
    unclaim(victim);
  }

  /** No victim is awaited. */
  boolean isEmpty() {
    return claimByVictim.isEmpty();
  }

  boolean isVictim(String unit) {
    return claimByVictim.containsKey(unit) || stuck.contains(unit);
  }

  /** @param treeOf the top quota of a quota's tree */
  boolean isBusy(String quota, UnaryOperator<String> treeOf) {
    if (victimCountByQuota.containsKey(quota)) {
      return true;
    }
    String tree = treeOf.apply(quota);
    return orphanCountByQuota.keySet().stream().anyMatch(orphan -> treeOf.apply(orphan).equals(tree));
  }

  /** Victims still holding quota on behalf of {@code preemptor}, in decision order. */
  List<String> victimsOf(String preemptor) {
    return List.copyOf(victimsByPreemptor.getOrDefault(preemptor, Set.of()));
  }

  /**
   * Dates the adopted victims from {@code now} and gives up on victims that have not stopped in
   * time.
   *
   * @return the victims given up on now, each reported once
   */
  List<String> expire(Instant now) {
    claimByVictim.replaceAll(
        (victim, claim) -> claim.since() == null ? new Claim(null, claim.scope(), now) : claim);
    List<String> expired = new ArrayList<>();
    claimByVictim.forEach(
        (victim, claim) -> {
          if (!claim.since().plus(TIMEOUT).isAfter(now)) {
            expired.add(victim);
          }
        });
    expired.forEach(
        victim -> {
          unclaim(victim);
          stuck.add(victim);
        });
    return expired;
  }

  /** When the earliest victim in flight times out. */
  Optional<Instant> nextTimeout() {
    return claimByVictim.values().stream()
        .map(Claim::since)
        .filter(since -> since != null)
        .min(Instant::compareTo)
        .map(since -> since.plus(TIMEOUT));
  }

  private void claim(String victim, Claim claim) {
    claimByVictim.put(victim, claim);
    if (claim.isOrphan()) {
      orphanCountByQuota.merge(claim.scope(), 1, Integer::sum);
    } else {
      victimsByPreemptor.computeIfAbsent(claim.preemptor(), p -> new LinkedHashSet<>()).add(victim);
      victimCountByQuota.merge(claim.scope(), 1, Integer::sum);
    }
  }

  private void unclaim(String victim) {
    Claim claim = claimByVictim.remove(victim);
    if (claim == null) {
      return;
    }
    if (claim.isOrphan()) {
      orphanCountByQuota.computeIfPresent(claim.scope(), (q, n) -> n == 1 ? null : n - 1);
      return;
    }
    Set<String> victims = victimsByPreemptor.get(claim.preemptor());
    victims.remove(victim);
    if (victims.isEmpty()) {
      victimsByPreemptor.remove(claim.preemptor());
    }
    victimCountByQuota.computeIfPresent(claim.scope(), (q, n) -> n == 1 ? null : n - 1);
  }
}
