package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;

/** Allows, rejects or holds a reserved pod before it binds. */
public interface PermitPlugin extends Plugin {

  /**
   * @param status {@link Status.Code#WAIT} holds the pod in {@link WaitingPods} until this plugin
   *     allows or rejects it, or {@code timeout} passes (a rejection)
   */
  record Decision(Status status, Duration timeout) {
    public static final Decision ALLOW = new Decision(Status.SUCCESS, Duration.ZERO);

    public static Decision waitFor(Duration timeout) {
      return new Decision(Status.waiting(), timeout);
    }
  }

  Decision permit(CycleState state, Pod pod, String nodeName);
}
