package io.koord4j.queue.core;

import io.koord4j.quota.AdmissionResult;
import io.koord4j.quota.ResourceVector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shortages found during one pass, per leaf quota, so that a pass over many units of a full quota
 * does not check each of them against the whole tree.
 *
 * <p>Sound because within a pass used amounts only grow (admissions) and runtime quotas stay put
 * (admitting does not change demand, preemptions release nothing until confirmed): once
 * {@code requested} of a resource did not fit at some quota, no larger amount fits there for the
 * rest of the pass. A smaller request is checked in full. The available amount reported is the
 * one seen when the shortage was found.
 */
final class KnownShortages {

  private final Map<String, List<AdmissionResult>> byLeaf = new HashMap<>();

  /** A shortage that already rules out {@code request} at {@code leaf}, or null. */
  AdmissionResult find(String leaf, ResourceVector request) {
    for (AdmissionResult known : byLeaf.getOrDefault(leaf, List.of())) {
      long requested = request.get(known.resource());
      if (requested >= known.requested()) {
        return new AdmissionResult(
            false, known.quota(), known.resource(), requested, known.available());
      }
    }
    return null;
  }

  /** Keeps the smallest failed amount per blocking quota and resource. */
  void record(String leaf, AdmissionResult shortage) {
    List<AdmissionResult> known = byLeaf.computeIfAbsent(leaf, l -> new ArrayList<>(2));
    for (int i = 0; i < known.size(); i++) {
      AdmissionResult k = known.get(i);
      if (k.quota().equals(shortage.quota()) && k.resource().equals(shortage.resource())) {
        if (shortage.requested() < k.requested()) {
          known.set(i, shortage);
        }
        return;
      }
    }
    known.add(shortage);
  }
}
