package io.koord4j.kueue;

import io.koord4j.api.kueue.AdmissionCheckState;
import io.koord4j.api.kueue.PodSetUpdate;
import io.koord4j.device.PodPlacement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the cluster says about a gang right now, before timing rules apply.
 *
 * @param state {@link AdmissionCheckState#READY}, {@link AdmissionCheckState#PENDING} or {@link
 *     AdmissionCheckState#REJECTED}
 * @param podSetUpdates empty unless Ready
 */
record GangVerdict(String state, String message, List<PodSetUpdate> podSetUpdates) {

  /** @param domain the topology domain it was fitted into, e.g. {@code rack=r1}; null for none */
  static GangVerdict fits(List<PodPlacement> placements, String domain, List<PodSetUpdate> podSetUpdates) {
    Map<String, Long> podsByNode = placements.stream()
        .collect(Collectors.groupingBy(PodPlacement::nodeName, TreeMap::new, Collectors.counting()));
    String where = podsByNode.entrySet().stream()
        .map(node -> node.getValue() + " on " + node.getKey())
        .collect(Collectors.joining(", "));
    return new GangVerdict(
        AdmissionCheckState.READY,
        "all " + placements.size() + " pods fit now" + (domain == null ? "" : " in " + domain) + ": " + where,
        podSetUpdates);
  }

  static GangVerdict waiting(String reason) {
    return new GangVerdict(AdmissionCheckState.PENDING, "waiting for room: " + reason, List.of());
  }

  static GangVerdict neverFits(String reasonOnEmptyNodes) {
    return new GangVerdict(
        AdmissionCheckState.REJECTED,
        "the gang does not fit even on empty nodes: " + reasonOnEmptyNodes,
        List.of());
  }

  static GangVerdict rejected(String reason) {
    return new GangVerdict(AdmissionCheckState.REJECTED, reason, List.of());
  }

  static GangVerdict invalid(String problem) {
    return new GangVerdict(AdmissionCheckState.REJECTED, "the pods can never be placed: " + problem, List.of());
  }
}
