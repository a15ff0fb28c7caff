package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;

/** Decides whether the pod may run on one node. Called in parallel for many nodes. */
public interface FilterPlugin extends Plugin {
  Status filter(CycleState state, Pod pod, NodeInfo node);
}
