package io.koord4j.scheduler.framework;

import java.util.Set;

/** A plugin that states its name and the cluster events it requeues on once, when it is made. */
public abstract class BasePlugin implements Plugin {
  private final String name;
  private final Set<ClusterEvent> requeueOn;

  /** @param requeueOn see {@link Plugin#requeueOn} */
  protected BasePlugin(String name, Set<ClusterEvent> requeueOn) {
    this.name = name;
    this.requeueOn = Set.copyOf(requeueOn);
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Set<ClusterEvent> requeueOn() {
    return requeueOn;
  }
}
