package io.koord4j.kueue;

import io.koord4j.api.kueue.Workload;
import io.koord4j.device.ClusterNode;
import io.koord4j.device.GangFeasibility;
import io.koord4j.device.GangPlacement;
import io.koord4j.device.PodPlacement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Whether a workload's gang can start now: room in its elastic quota, if its pods name one, and
 * room for every pod at once, on any eligible nodes or within one topology domain.
 */
final class GangFit {
  /** Nodes whose refusal is named in a message before the rest are only counted. */
  private static final int REFUSALS_SHOWN = 3;

  /**
   * The verdict with what backs it.
   *
   * @param gang null when the workload cannot be read as a gang
   * @param placements one per pod when Ready, else empty
   */
  record Decided(GangVerdict verdict, WorkloadGang gang, List<PodPlacement> placements) {}

  private GangFit() {}

  static Decided decide(ClusterSnapshot free, QuotaRoom quotas, Workload workload, CheckConfig config) {
    WorkloadGang gang;
    try {
      gang = WorkloadGang.of(workload);
    } catch (IllegalArgumentException e) {
      return new Decided(GangVerdict.invalid(e.getMessage()), null, List.of());
    }
    Optional<GangVerdict> quotaRefusal = QuotaRoom.quotaOf(workload)
        .flatMap(quota -> quotas.refusal(quota, gang.request()));
    if (quotaRefusal.isPresent()) {
      return new Decided(quotaRefusal.get(), gang, List.of());
    }
    return config.topologyKey() == null
        ? anywhere(free, workload, gang)
        : inOneDomain(free, workload, gang, config.topologyKey());
  }

  private static Decided anywhere(ClusterSnapshot free, Workload workload, WorkloadGang gang) {
    List<ClusterNode> nodes = free.nodes(gang::eligible);
    GangFeasibility feasibility = GangPlacement.check(nodes, gang.podSets());
    if (feasibility.fitsNow()) {
      return fits(workload, gang, feasibility, null, Map.of());
    }
    if (!feasibility.fitsWhenEmpty()) {
      return new Decided(GangVerdict.neverFits(neverFits(free, gang).orElseThrow()), gang, List.of());
    }
    return new Decided(GangVerdict.waiting(feasibility.reason()), gang, List.of());
  }

  /**
   * Why the gang's pods cannot all be placed on the eligible nodes even when they are empty, with
   * the scheduler's reasons for the nodes none of its pods may go onto; empty when they can.
   */
  static Optional<String> neverFits(ClusterSnapshot cluster, WorkloadGang gang) {
    List<ClusterNode> empty = cluster.nodes(gang::eligible).stream().map(ClusterNode::emptied).toList();
    GangFeasibility feasibility = GangPlacement.check(empty, gang.podSets());
    if (feasibility.fitsNow()) {
      return Optional.empty();
    }
    List<String> refusals = cluster.refusals(gang::refusal);
    String refused = refusals.stream().limit(REFUSALS_SHOWN).collect(Collectors.joining("; "));
    if (refusals.size() > REFUSALS_SHOWN) {
      refused += "; and " + (refusals.size() - REFUSALS_SHOWN) + " more nodes";
    }
    return Optional.of(refusals.isEmpty() ? feasibility.reason() : feasibility.reason() + "; " + refused);
  }

  /** The first domain, in label-value order, where the whole gang fits now. */
  private static Decided inOneDomain(ClusterSnapshot free, Workload workload, WorkloadGang gang, String key) {
    SortedMap<String, List<ClusterNode>> domains = free.domains(key, gang::eligible);
    if (domains.isEmpty()) {
      return new Decided(GangVerdict.rejected("no eligible node has the topology label " + key), gang, List.of());
    }
    Map<String, GangFeasibility> byDomain = domains.entrySet().stream().collect(Collectors.toMap(
        Map.Entry::getKey, domain -> GangPlacement.check(domain.getValue(), gang.podSets()),
        (a, b) -> a, TreeMap::new));
    for (Map.Entry<String, GangFeasibility> domain : byDomain.entrySet()) {
      if (domain.getValue().fitsNow()) {
        return fits(workload, gang, domain.getValue(), key + "=" + domain.getKey(), Map.of(key, domain.getKey()));
      }
    }
    boolean fitsSomeDay = byDomain.values().stream().anyMatch(GangFeasibility::fitsWhenEmpty);
    String reasons = byDomain.entrySet().stream()
        .map(domain -> key + "=" + domain.getKey() + ": " + domain.getValue().reason())
        .collect(Collectors.joining("; "));
    GangVerdict verdict = fitsSomeDay
        ? GangVerdict.waiting("no " + key + " domain has room for the whole gang: " + reasons)
        : GangVerdict.rejected("the gang does not fit in any single " + key + " domain even on empty nodes");
    return new Decided(verdict, gang, List.of());
  }

  private static Decided fits(
      Workload workload, WorkloadGang gang, GangFeasibility feasibility, String domain, Map<String, String> nodeSelector) {
    return new Decided(
        GangVerdict.fits(feasibility.placements(), domain, GangPodSetUpdates.of(workload, gang.pods(), nodeSelector)),
        gang,
        feasibility.placements());
  }
}
