package io.koord4j.scheduler.framework;

import java.util.EnumSet;
import java.util.Set;

/**
 * A scheduling plugin. It takes part at every extension point whose interface it implements, in
 * the order the profile lists the plugins.
 */
public interface Plugin {

  String name();

  /**
   * The cluster events after which a pod this plugin rejected is worth another attempt. Narrowing
   * this keeps pods out of retries that cannot succeed.
   */
  default Set<ClusterEvent> requeueOn() {
    return EnumSet.allOf(ClusterEvent.class);
  }
}
