package io.koord4j.scheduler.plugins.coscheduling;

import static io.koord4j.scheduler.Fixtures.pod;
import static io.koord4j.scheduler.Fixtures.withAnnotations;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.scheduler.framework.CycleState;
import io.koord4j.scheduler.framework.Framework;
import io.koord4j.scheduler.framework.PermitPlugin;
import io.koord4j.scheduler.framework.Status;
import io.koord4j.scheduler.framework.WaitingPods;
import io.koord4j.scheduler.plugins.DefaultBinder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class CoschedulingTest {

  private final Map<String, Integer> members = new HashMap<>();
  private final Map<String, Integer> placed = new HashMap<>();
  private final WaitingPods waiting = new WaitingPods(Executors.newSingleThreadScheduledExecutor());
  private final Coscheduling plugin =
      new Coscheduling(
          new GangResolver(id -> null),
          new Coscheduling.GangCounts() {
            @Override
            public int members(String gangId) {
              return members.getOrDefault(gangId, 0);
            }

            @Override
            public int placed(String gangId) {
              return placed.getOrDefault(gangId, 0);
            }
          },
          waiting);
  private final Framework framework =
      new Framework(
          List.of(plugin, new DefaultBinder((pod, node) -> {})),
          Map.of(),
          Executors.newSingleThreadExecutor(),
          1,
          waiting);

  @Test
  void rejectsAtOnceWhileTheGangHasTooFewPods() {
    members.put("default/g", 3);
    Status status = plugin.preFilter(new CycleState(), member("p0", "g", 4, "Strict"));
    assertThat(status.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(status.message()).isEqualTo("gang default/g has 3 pod(s), fewer than its minimum of 4");
  }

  @Test
  void holdsMembersUntilMinMemberArePlacedThenAllowsAll() throws Exception {
    members.put("default/g", 3);
    List<CompletableFuture<Status>> outcomes = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      placed.put("default/g", i + 1);
      outcomes.add(permit(member("p" + i, "g", 3, "Strict")));
    }
    assertThat(outcomes.get(2)).isCompletedWithValue(Status.SUCCESS);
    for (CompletableFuture<Status> outcome : outcomes) {
      assertThat(outcome.get()).isEqualTo(Status.SUCCESS);
    }
    assertThat(waiting.all()).isEmpty();
  }

  @Test
  void waitsForEveryGangOfTheGroup() {
    members.put("default/a", 1);
    members.put("default/b", 1);
    placed.put("default/a", 1);
    String groups = "[\"default/a\",\"default/b\"]";
    CompletableFuture<Status> a = permit(withGroups(member("a0", "a", 1, "Strict"), groups));
    assertThat(a).isNotDone();
    placed.put("default/b", 1);
    CompletableFuture<Status> b = permit(withGroups(member("b0", "b", 1, "Strict"), groups));
    assertThat(b).isCompletedWithValue(Status.SUCCESS);
    assertThat(a).isCompletedWithValue(Status.SUCCESS);
  }

  @Test
  void strictModeRejectsTheWaitingMembersWhenOneCannotBePlaced() {
    members.put("default/g", 3);
    placed.put("default/g", 1);
    CompletableFuture<Status> first = permit(member("p0", "g", 3, "Strict"));
    Pod failing = member("p1", "g", 3, "Strict");
    CycleState state = new CycleState();
    plugin.preFilter(state, failing);
    plugin.postFilter(state, failing, null);

    Status status = first.join();
    assertThat(status.isRejection()).isTrue();
    assertThat(status.message())
        .isEqualTo("gang default/g rejected in Strict mode: member default/p1 cannot be placed");
  }

  @Test
  void nonStrictModeKeepsTheWaitingMembers() {
    members.put("default/g", 3);
    placed.put("default/g", 1);
    CompletableFuture<Status> first = permit(member("p0", "g", 3, "NonStrict"));
    Pod failing = member("p1", "g", 3, "NonStrict");
    CycleState state = new CycleState();
    plugin.preFilter(state, failing);
    plugin.postFilter(state, failing, null);
    plugin.unreserve(state, failing, "n");
    assertThat(first).isNotDone();
  }

  @Test
  void gangsWhosePodsAreAllGoneAreForgotten() {
    members.put("default/live", 1);
    placed.put("default/live", 1);
    plugin.preFilter(new CycleState(), member("live-0", "live", 1, "Strict"));
    for (int i = 0; i < 1_000; i++) {
      String gang = "g" + i;
      members.put("default/" + gang, 1);
      plugin.preFilter(new CycleState(), member("p" + i, gang, 1, "Strict"));
      members.remove("default/" + gang);
    }

    assertThat(plugin.knownGangs()).as("gangs remembered").isLessThanOrEqualTo(2 * 64 + 1);
    members.put("default/late", 1);
    placed.put("default/late", 1);
    Pod late = withGroups(member("late-0", "late", 1, "Strict"), "[\"default/late\",\"default/live\"]");
    assertThat(permit(late)).as("its group's gang with pods is still known").isCompletedWithValue(Status.SUCCESS);
  }

  @Test
  void aPodWithoutAGangPassesEveryPoint() {
    CycleState state = new CycleState();
    Pod pod = pod("solo", "1", "1Gi");
    assertThat(plugin.preFilter(state, pod)).isEqualTo(Status.SUCCESS);
    assertThat(plugin.permit(state, pod, "n")).isEqualTo(PermitPlugin.Decision.ALLOW);
  }

  private CompletableFuture<Status> permit(Pod pod) {
    CycleState state = new CycleState();
    assertThat(plugin.preFilter(state, pod)).isEqualTo(Status.SUCCESS);
    return framework.permit(state, pod, "n");
  }

  private static Pod member(String name, String gang, int minAvailable, String mode) {
    return withAnnotations(
        pod(name, "1", "1Gi"),
        Map.of(
            WellKnown.GANG_NAME, gang,
            WellKnown.GANG_MIN_AVAILABLE, Integer.toString(minAvailable),
            WellKnown.GANG_MODE, mode));
  }

  private static Pod withGroups(Pod pod, String groups) {
    return withAnnotations(pod, Map.of(WellKnown.GANG_GROUPS, groups));
  }
}
