package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;

/** Checks the pod once per cycle before any node is looked at; may prepare cycle state. */
public interface PreFilterPlugin extends Plugin {
  Status preFilter(CycleState state, Pod pod);
}
