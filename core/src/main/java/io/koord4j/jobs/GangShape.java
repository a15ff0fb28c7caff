package io.koord4j.jobs;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What a job was admitted for: the pod count of each pod set and the total request. A running
 * job whose shape differs from its admitted one uses quota nobody granted; no kind koord4j queues
 * resizes a running gang, so any difference is refused or undone.
 *
 * @param counts pod count by pod set name
 * @param request the total request of every pod, in base units
 */
public record GangShape(Map<String, Integer> counts, ResourceVector request) {

  public GangShape {
    counts = Map.copyOf(counts);
  }

  public static <T extends HasMetadata> GangShape of(
      JobAdapter<T> adapter, T job) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    List<PodSetInfo> podSets = adapter.podSets(job);
    podSets.forEach(podSet -> counts.put(podSet.name(), podSet.count()));
    return new GangShape(counts, ResourceQuantities.fromAmounts(adapter.totalRequests(job)));
  }

  /**
   * How {@code changed} differs from this shape, for people: each pod set whose count moved, then
   * each resource whose total moved; empty when the shapes are the same.
   */
  public Optional<String> changeTo(GangShape changed) {
    StringBuilder change = new StringBuilder();
    TreeSet<String> podSets = new TreeSet<>(counts.keySet());
    podSets.addAll(changed.counts.keySet());
    for (String podSet : podSets) {
      int before = counts.getOrDefault(podSet, 0);
      int after = changed.counts.getOrDefault(podSet, 0);
      if (before != after) {
        append(change, "pod set \"" + podSet + "\" from " + before + " to " + after + " pods");
      }
    }
    TreeSet<String> resources = new TreeSet<>(request.resourceNames());
    resources.addAll(changed.request.resourceNames());
    for (String resource : resources) {
      long before = request.get(resource);
      long after = changed.request.get(resource);
      if (before != after) {
        append(change, resource + " from " + ResourceQuantities.format(resource, before)
            + " to " + ResourceQuantities.format(resource, after));
      }
    }
    return change.isEmpty() ? Optional.empty() : Optional.of(change.toString());
  }

  private static void append(StringBuilder change, String part) {
    change.append(change.isEmpty() ? "" : ", ").append(part);
  }
}
