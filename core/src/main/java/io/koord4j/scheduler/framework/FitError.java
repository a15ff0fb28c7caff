package io.koord4j.scheduler.framework;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Why no node fits a pod: either one PreFilter rejection, or each node's Filter rejection.
 *
 * @param preFilter the rejecting PreFilter status, or null when the filters ran
 * @param nodeStatuses the rejection of each node that was checked, by node name
 */
public record FitError(int nodeCount, Status preFilter, Map<String, Status> nodeStatuses) {

  public static FitError atPreFilter(int nodeCount, Status status) {
    return new FitError(nodeCount, status, Map.of());
  }

  /**
   * kube-scheduler's summary, e.g. {@code 0/5 nodes are available: 3 Insufficient cpu, 2 node(s)
   * had untolerated taint {dedicated: gpu}.}: how many nodes failed for each reason, reasons in
   * alphabetical order.
   */
  public String message() {
    String prefix = "0/" + nodeCount + " nodes are available";
    if (preFilter != null) {
      return prefix + ": " + preFilter.message() + ".";
    }
    if (nodeStatuses.isEmpty()) {
      return prefix + ".";
    }
    Map<String, Integer> nodesByReason = new TreeMap<>();
    nodeStatuses.values().stream()
        .flatMap(status -> status.reasons().stream())
        .forEach(reason -> nodesByReason.merge(reason, 1, Integer::sum));
    return prefix
        + ": "
        + nodesByReason.entrySet().stream()
            .map(e -> e.getValue() + " " + e.getKey())
            .collect(Collectors.joining(", "))
        + ".";
  }

  /** The plugins that rejected the pod: only events they care about make a retry worthwhile. */
  public Set<String> rejectors() {
    Collection<Status> statuses = preFilter != null ? Set.of(preFilter) : nodeStatuses.values();
    return statuses.stream().map(Status::plugin).collect(Collectors.toCollection(TreeSet::new));
  }
}
