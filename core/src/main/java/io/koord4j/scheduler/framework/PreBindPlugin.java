package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;

/** Writes what must be on the pod before it binds, e.g. a device allocation annotation. */
public interface PreBindPlugin extends Plugin {
  Status preBind(CycleState state, Pod pod, String nodeName);
}
