package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;

/** Binds the pod to the node; a profile has exactly one bind plugin. */
public interface BindPlugin extends Plugin {
  Status bind(CycleState state, Pod pod, String nodeName);
}
