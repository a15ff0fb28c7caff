package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * Claims what the pod will use on the chosen node before binding starts, so that the next cycle
 * sees it; {@link #unreserve} gives it back when any later point fails.
 */
public interface ReservePlugin extends Plugin {
  /** Claims nothing by default, for a plugin that only acts when a placement is given up. */
  default Status reserve(CycleState state, Pod pod, String nodeName) {
    return Status.SUCCESS;
  }

  /** Must be idempotent and must not fail: it also runs when this plugin's reserve did not. */
  void unreserve(CycleState state, Pod pod, String nodeName);
}
