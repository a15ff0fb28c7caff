package io.koord4j.scheduler.plugins.coscheduling;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.BasePlugin;
import io.koord4j.scheduler.framework.ClusterEvent;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.FitError;
import io.koord4j.scheduler.framework.PermitPlugin;
import io.koord4j.scheduler.framework.PostFilterPlugin;
import io.koord4j.scheduler.framework.PreFilterPlugin;
import io.koord4j.scheduler.framework.ReservePlugin;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.framework.WaitingPod;
import io.koord4j.scheduler.framework.WaitingPods;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/**
 * Gang scheduling: members of a gang are placed one by one and held at Permit until {@code
 * minMember} pods of every gang in the group are placed; then all are allowed at once.
 *
 * <ul>
 *   <li>PreFilter rejects a member at once while its gang has fewer pods than {@code minMember}:
 *       it could never be satisfied.
 *   <li>In Strict mode, a member that finds no node (PostFilter) or fails after Reserve (Unreserve,
 *       including a Permit timeout) sends every waiting member of the group back to the queue.
 * </ul>
 */
public final class Coscheduling extends BasePlugin
    implements PreFilterPlugin, PostFilterPlugin, ReservePlugin, PermitPlugin {

  public static final String NAME = "Coscheduling";
  private static final CycleState.Key<Optional<Gang>> GANG = new CycleState.Key<>(NAME);

  /**
   * How many pods of a gang exist and how many are placed (bound or assumed). Members that
   * succeeded count as both, as in Koordinator, where a gang once satisfied lets its later pods
   * pass: the rest of a gang whose first members finished must not wait for ever.
   */
  public interface GangCounts {
    int members(String gangId);

    int placed(String gangId);

    static GangCounts of(ToIntFunction<String> members, ToIntFunction<String> placed) {
      return new GangCounts() {
        @Override
        public int members(String gangId) {
          return members.applyAsInt(gangId);
        }

        @Override
        public int placed(String gangId) {
          return placed.applyAsInt(gangId);
        }
      };
    }
  }

  private final GangResolver resolver;
  private final GangCounts counts;
  private final WaitingPods waitingPods;
  /** The latest view of each gang seen at PreFilter, for checking the other gangs of a group. */
  private final Map<String, Gang> known = new ConcurrentHashMap<>();
  /** Gangs known after the last pruning: the next comes once as many more are, amortizing its cost. */
  private final AtomicInteger prunedAt = new AtomicInteger();

  public Coscheduling(GangResolver resolver, GangCounts counts, WaitingPods waitingPods) {
    super(NAME, EnumSet.of(ClusterEvent.POD_ADDED, ClusterEvent.POD_GROUP_CHANGED));
    this.resolver = resolver;
    this.counts = counts;
    this.waitingPods = waitingPods;
  }

  @Override
  public Status preFilter(CycleState state, Pod pod) {
    return Status.ifReadable(() -> resolver.gangOf(pod), gang -> checkGang(state, gang));
  }

  private Status checkGang(CycleState state, Optional<Gang> gang) {
    state.put(GANG, gang);
    if (gang.isEmpty()) {
      return Status.SUCCESS;
    }
    Gang g = gang.get();
    known.put(g.id(), g);
    pruneIfGrown();
    int members = counts.members(g.id());
    if (members < g.minMember()) {
      return Status.unresolvable(
          "gang " + g.id() + " has " + members + " pod(s), fewer than its minimum of "
              + g.minMember());
    }
    return Status.SUCCESS;
  }

  @Override
  public void postFilter(CycleState state, Pod pod, FitError error) {
    rejectStrictGang(state, pod, "cannot be placed");
  }

  @Override
  public void unreserve(CycleState state, Pod pod, String nodeName) {
    rejectStrictGang(state, pod, "failed after it was placed");
  }

  @Override
  public Decision permit(CycleState state, Pod pod, String nodeName) {
    Optional<Gang> gang = gangIn(state);
    if (gang.isEmpty()) {
      return Decision.ALLOW;
    }
    Gang g = gang.get();
    if (!g.group().stream().allMatch(this::satisfied)) {
      return Decision.waitFor(g.waitingTime());
    }
    for (WaitingPod waiting : waitingPods.all()) {
      Optional<String> id = GangResolver.gangIdOf(waiting.pod());
      if (id.isPresent() && g.group().contains(id.get())) {
        waiting.allow(NAME);
      }
    }
    return Decision.ALLOW;
  }

  /** How many gangs are remembered: those with pods, and at most as many gone ones. */
  int knownGangs() {
    return known.size();
  }

  /** Forgets the gangs whose pods are all gone, once the map has doubled since it last did. */
  private void pruneIfGrown() {
    int size = known.size();
    int last = prunedAt.get();
    if (size > Math.max(2 * last, 64) && prunedAt.compareAndSet(last, size)) {
      known.keySet().removeIf(id -> counts.members(id) == 0);
      prunedAt.set(known.size());
    }
  }

  /** A gang is satisfied once minMember of its pods are placed; an unseen gang is not. */
  private boolean satisfied(String gangId) {
    Gang gang = known.get(gangId);
    return gang != null && counts.placed(gangId) >= gang.minMember();
  }

  /** A strict gang fails as a whole when one member does: its waiting members are sent back. */
  private void rejectStrictGang(CycleState state, Pod pod, String what) {
    gangIn(state)
        .filter(Gang::strict)
        .ifPresent(g -> rejectWaiting(g, "member " + nameOf(pod) + " " + what));
  }

  /**
   * One cascade at a time: a member rejected here wakes up and cascades too, and must find the
   * others already rejected, so that every member names the one that failed first.
   */
  private synchronized void rejectWaiting(Gang gang, String why) {
    for (WaitingPod waiting : waitingPods.all()) {
      Optional<String> id = GangResolver.gangIdOf(waiting.pod());
      if (id.isPresent() && gang.group().contains(id.get())) {
        waiting.reject(NAME, "gang " + gang.id() + " rejected in Strict mode: " + why);
      }
    }
  }

  private static Optional<Gang> gangIn(CycleState state) {
    Optional<Gang> gang = state.getOrNull(GANG);
    return gang == null ? Optional.empty() : gang;
  }

  private static String nameOf(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
