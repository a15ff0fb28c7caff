package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;
/** Ranks a feasible node; after {@link #normalize} every score must lie in 0..100. */
public interface ScorePlugin extends Plugin {

  long MAX_SCORE = 100;

  long score(CycleState state, Pod pod, NodeInfo node);

  /**
   * Rescales the raw scores of a cycle's feasible nodes in place, for plugins whose raw scores
   * are not 0..100. Index i is the i-th feasible node.
   */
  default void normalize(long[] scores) {}

  /**
   * Scales scores so the highest becomes {@link #MAX_SCORE}; {@code reverse} then flips them, for
   * raw scores that count something bad. All zeros stay zero (or become the maximum if reversed).
   */
  static void scaleToMax(long[] scores, boolean reverse) {
    long highest = 0;
    for (long score : scores) {
      highest = Math.max(highest, score);
    }
    for (int i = 0; i < scores.length; i++) {
      long scaled = highest == 0 ? 0 : scores[i] * MAX_SCORE / highest;
      scores[i] = reverse ? MAX_SCORE - scaled : scaled;
    }
  }
}
