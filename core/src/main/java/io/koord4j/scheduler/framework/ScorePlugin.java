package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/** Ranks a feasible node; after {@link #normalize} every score must lie in 0..100. */
public interface ScorePlugin extends Plugin {

  long MAX_SCORE = 100;

  long score(CycleState state, Pod pod, NodeInfo node);

  /** Rescales raw scores by node name in place, for plugins whose raw scores are not 0..100. */
  default void normalize(Map<String, Long> scores) {}

  /**
   * Scales scores so the highest becomes {@link #MAX_SCORE}; {@code reverse} then flips them, for
   * raw scores that count something bad. All zeros stay zero (or become the maximum if reversed).
   */
  static void scaleToMax(Map<String, Long> scores, boolean reverse) {
    long highest = scores.values().stream().mapToLong(Long::longValue).max().orElse(0);
    scores.replaceAll(
        (node, score) -> {
          long scaled = highest == 0 ? 0 : score * MAX_SCORE / highest;
          return reverse ? MAX_SCORE - scaled : scaled;
        });
  }
}
