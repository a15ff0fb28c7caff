package io.koord4j.scheduler.plugins;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.BindPlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Status;
import java.util.EnumSet;

/** Binds through the API server's Binding subresource. */
public final class DefaultBinder extends BasePlugin implements BindPlugin {

  public static final String NAME = "DefaultBinder";

  /** The I/O behind binding, so that the cycle can be tested without a cluster. */
  @FunctionalInterface
  public interface PodBinder {
    /** @throws RuntimeException when the API server refuses or cannot be reached */
    void bind(Pod pod, String nodeName);
  }

  private final PodBinder binder;

  public DefaultBinder(PodBinder binder) {
    super(NAME, EnumSet.allOf(ClusterEvent.class));
    this.binder = binder;
  }

  @Override
  public Status bind(CycleState state, Pod pod, String nodeName) {
    try {
      binder.bind(pod, nodeName);
      return Status.SUCCESS;
    } catch (RuntimeException e) {
      return Status.error("binding to " + nodeName + " failed: " + e.getMessage());
    }
  }
}
