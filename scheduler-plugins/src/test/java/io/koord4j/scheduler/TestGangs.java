package io.koord4j.scheduler;

import io.koord4j.scheduler.cache.SchedulerCache;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.coscheduling.Coscheduling;
import io.koord4j.scheduler.plugins.coscheduling.GangResolver;

/** Coscheduling over a test's cache, gangs read from the pods' annotations alone. */
public final class TestGangs {
  private TestGangs() {}

  public static Coscheduling coscheduling(SchedulerCache cache, WaitingPods waiting) {
    return new Coscheduling(
        new GangResolver(id -> null),
        Coscheduling.GangCounts.of(cache::groupMembers, cache::groupPlaced),
        waiting);
  }
}
