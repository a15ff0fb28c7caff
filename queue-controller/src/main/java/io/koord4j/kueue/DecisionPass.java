package io.koord4j.kueue;

import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.Workload;
import io.koord4j.device.ClusterNode;
import io.koord4j.device.GangFeasibility;
import io.koord4j.device.GangPlacement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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

  static Result run(ClusterSnapshot cluster, List<WaitingWorkload> waiting, CheckSettings settings, Instant now) {
    ClusterSnapshot free = cluster;
    for (WaitingWorkload ready : waiting.stream().filter(WaitingWorkload::isReady).toList()) {
      free = claimUnbound(free, ready.workload());
    }
    List<Write> writes = new ArrayList<>();
    Optional<Instant> nextPass = Optional.empty();
    for (WaitingWorkload workload : waiting.stream().filter(w -> !w.isReady()).sorted(KUEUE_ORDER).toList()) {
      if (workload.ourChecks().stream().allMatch(CheckTransition::isSettled)) {
        continue;
      }
      Decided decided = decide(free, workload.workload());
      List<AdmissionCheckState> next = workload.ourChecks().stream()
          .map(check -> CheckTransition.next(check, decided.verdict, settings, now))
          .toList();
      boolean changed = false;
      for (int i = 0; i < next.size(); i++) {
        AdmissionCheckState check = next.get(i);
        changed |= CheckTransition.changes(workload.ourChecks().get(i), check);
        if (AdmissionCheckState.PENDING.equals(check.getState())) {
          Instant retryAt = CheckTransition.retryAt(check, settings, now);
          nextPass = nextPass.filter(earlier -> earlier.isBefore(retryAt)).or(() -> Optional.of(retryAt));
        }
      }
      if (changed) {
        writes.add(new Write(workload.namespace(), workload.name(), next));
      }
      if (next.stream().allMatch(check -> AdmissionCheckState.READY.equals(check.getState()))) {
        free = free.withPlaced(decided.gang.podSets(), decided.feasibility.placements());
      }
    }
    return new Result(List.copyOf(writes), nextPass);
  }

  /** The verdict with the gang and placement behind it; gang and feasibility null when invalid. */
  private record Decided(GangVerdict verdict, WorkloadGang gang, GangFeasibility feasibility) {}

  private static Decided decide(ClusterSnapshot free, Workload workload) {
    WorkloadGang gang;
    try {
      gang = WorkloadGang.of(workload);
    } catch (IllegalArgumentException e) {
      return new Decided(GangVerdict.invalid(e.getMessage()), null, null);
    }
    List<ClusterNode> nodes = free.nodes(gang::eligible);
    GangFeasibility feasibility = GangPlacement.check(nodes, gang.podSets());
    GangVerdict verdict;
    if (feasibility.fitsNow()) {
      verdict = GangVerdict.fits(feasibility.placements(), GangPodSetUpdates.of(workload, gang.pods()));
    } else if (!feasibility.fitsWhenEmpty()) {
      List<ClusterNode> empty = nodes.stream().map(ClusterNode::emptied).toList();
      verdict = GangVerdict.neverFits(GangPlacement.check(empty, gang.podSets()).reason());
    } else {
      verdict = GangVerdict.waiting(feasibility.reason());
    }
    return new Decided(verdict, gang, feasibility);
  }

  /** A gang let through holds room for its pods until they are bound and counted on nodes. */
  private static ClusterSnapshot claimUnbound(ClusterSnapshot free, Workload workload) {
    WorkloadGang unbound;
    try {
      unbound = WorkloadGang.of(workload).without(free.boundPods(workload));
    } catch (IllegalArgumentException e) {
      return free;
    }
    if (unbound.pods() == 0) {
      return free;
    }
    GangFeasibility feasibility = GangPlacement.check(free.nodes(unbound::eligible), unbound.podSets());
    return feasibility.fitsNow() ? free.withPlaced(unbound.podSets(), feasibility.placements()) : free;
  }

  private static int priority(Workload workload) {
    Integer priority = workload.getSpec() == null ? null : workload.getSpec().getPriority();
    return priority == null ? 0 : priority;
  }
}
