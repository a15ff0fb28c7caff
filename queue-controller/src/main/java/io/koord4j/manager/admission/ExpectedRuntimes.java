package io.koord4j.manager.admission;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.QueueUnit;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How long a unit is expected to run once admitted, which a backfilling queue plans with: the
 * annotation {@value WellKnown#EXPECTED_RUNTIME_SECONDS}, or else the longest {@code
 * activeDeadlineSeconds} of its pod templates when every pod set has one.
 */
public final class ExpectedRuntimes {
  private ExpectedRuntimes() {}

  /** The annotation's value read, or an error naming the annotation and its rule. */
  public static Duration parse(String value) {
    try {
      long seconds = Long.parseLong(value.strip());
      if (seconds > 0) {
        return Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // Reported below with the rule.
    }
    throw new IllegalArgumentException(
        "annotation " + WellKnown.EXPECTED_RUNTIME_SECONDS + " '" + value + "' must be a whole number of seconds above 0");
  }

  /** The unit's expected runtime, or null when unknown; a value it cannot read counts as unknown. */
  public static Duration of(QueueUnit unit) {
    Map<String, String> annotations = unit.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(WellKnown.EXPECTED_RUNTIME_SECONDS);
    if (value != null) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return longestDeadline(unit.getSpec().getPodSet());
  }

  private static Duration longestDeadline(List<PodSet> podSets) {
    if (podSets == null || podSets.isEmpty()) {
      return null;
    }
    long longest = 0;
    for (PodSet podSet : podSets) {
      Long deadline = deadlineSeconds(podSet.getTemplate());
      if (deadline == null || deadline <= 0) {
        return null;
      }
      longest = Math.max(longest, deadline);
    }
    return Duration.ofSeconds(longest);
  }

  private static Long deadlineSeconds(PodTemplateSpec template) {
    return template == null || template.getSpec() == null ? null : template.getSpec().getActiveDeadlineSeconds();
  }
}
