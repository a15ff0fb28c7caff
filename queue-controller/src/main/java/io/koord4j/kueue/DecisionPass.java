package io.koord4j.kueue;

import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.Workload;
import io.koord4j.device.GangFeasibility;
import io.koord4j.device.GangPlacement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides every waiting workload against one view of the cluster. Gangs already let through
 * first claim room for their pods not bound yet; the others are decided in Kueue's order
 * (priority, then age), each gang found to fit taking its room, so that two gangs are never both
 * let through on the same free GPUs.
 */
final class DecisionPass {
  /** The entries to write on one workload: all of ours, so that none is dropped from our apply. */
  record Write(String namespace, String name, List<AdmissionCheckState> checks) {}

  /**
   * @param nextPass when a Pending entry turns Retry, if any
   */
  record Result(List<Write> writes, Optional<Instant> nextPass) {}

  private static final Comparator<WaitingWorkload> KUEUE_ORDER =
      Comparator.<WaitingWorkload>comparingInt(waiting -> -priority(waiting.workload()))
          .thenComparing(waiting -> String.valueOf(waiting.workload().getMetadata().getCreationTimestamp()))
          .thenComparing(WaitingWorkload::namespace)
          .thenComparing(WaitingWorkload::name);

  private DecisionPass() {}

  /**
   * @param quotas taken from by every gang let through; owned by this pass
   * @param configs by check name, the config of each of our Active checks
   */
  static Result run(
      ClusterSnapshot cluster, QuotaRoom quotas, List<WaitingWorkload> waiting, Map<String, CheckConfig> configs,
      Instant now) {
    ClusterSnapshot free = cluster;
    for (WaitingWorkload ready : waiting.stream().filter(WaitingWorkload::isReady).toList()) {
      free = claimUnbound(free, quotas, ready.workload());
    }
    List<Write> writes = new ArrayList<>();
    Optional<Instant> nextPass = Optional.empty();
    for (WaitingWorkload workload : waiting.stream().filter(w -> !w.isReady()).sorted(KUEUE_ORDER).toList()) {
      if (workload.ourChecks().stream().allMatch(CheckTransition::isSettled)) {
        continue;
      }
      Map<String, GangFit.Decided> byTopology = new HashMap<>();
      List<AdmissionCheckState> next = new ArrayList<>();
      boolean changed = false;
      for (AdmissionCheckState check : workload.ourChecks()) {
        CheckConfig config = configs.get(check.getName());
        ClusterSnapshot view = free;
        GangFit.Decided decided = byTopology.computeIfAbsent(String.valueOf(config.topologyKey()),
            key -> GangFit.decide(view, quotas, workload.workload(), config));
        AdmissionCheckState entry = CheckTransition.next(check, decided.verdict(), config.settings(), now);
        next.add(entry);
        changed |= CheckTransition.changes(check, entry);
        if (AdmissionCheckState.PENDING.equals(entry.getState())) {
          Instant retryAt = CheckTransition.retryAt(entry, config.settings(), now);
          nextPass = nextPass.filter(earlier -> earlier.isBefore(retryAt)).or(() -> Optional.of(retryAt));
        }
      }
      if (changed) {
        writes.add(new Write(workload.namespace(), workload.name(), next));
      }
      if (next.stream().allMatch(check -> AdmissionCheckState.READY.equals(check.getState()))) {
        GangFit.Decided decided = byTopology.values().iterator().next();
        free = free.withPlaced(decided.gang().podSets(), decided.placements());
        take(quotas, workload.workload(), decided.gang());
      }
    }
    return new Result(List.copyOf(writes), nextPass);
  }

  /** A gang let through holds room for its pods until they are bound and counted on nodes. */
  private static ClusterSnapshot claimUnbound(ClusterSnapshot free, QuotaRoom quotas, Workload workload) {
    WorkloadGang unbound;
    try {
      unbound = WorkloadGang.of(workload).without(free.boundPods(workload));
    } catch (IllegalArgumentException e) {
      return free;
    }
    if (unbound.pods() == 0) {
      return free;
    }
    take(quotas, workload, unbound);
    GangFeasibility feasibility = GangPlacement.check(free.nodes(unbound::eligible), unbound.podSets());
    return feasibility.fitsNow() ? free.withPlaced(unbound.podSets(), feasibility.placements()) : free;
  }

  private static void take(QuotaRoom quotas, Workload workload, WorkloadGang gang) {
    QuotaRoom.quotaOf(workload).ifPresent(quota -> quotas.take(quota, gang.request()));
  }

  private static int priority(Workload workload) {
    Integer priority = workload.getSpec() == null ? null : workload.getSpec().getPriority();
    return priority == null ? 0 : priority;
  }
}
