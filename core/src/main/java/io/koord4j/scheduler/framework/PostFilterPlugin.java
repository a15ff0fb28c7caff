package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;

/** Runs when no node fits the pod, e.g. to give up on the pod's whole gang. */
public interface PostFilterPlugin extends Plugin {
  void postFilter(CycleState state, Pod pod, FitError error);
}
