package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * Prepares a score plugin's cycle state once the feasible nodes are known, before any of them is
 * scored: for scores that depend on which nodes passed the filters (e.g. their topology domains).
 */
public interface PreScorePlugin extends Plugin {
  void preScore(CycleState state, Pod pod, List<NodeInfo> feasible);
}
