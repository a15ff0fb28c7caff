package io.koord4j.yarn.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SyncPlanTest {
  private static final long MIB = 1L << 20;
  private static final NodeManagerId NM = new NodeManagerId("default", "nm-a", 8041);
  private static final BatchResources SHARE = new BatchResources(4000, 4096 * MIB);
  private static final YarnResources TOTAL = new YarnResources(4, 4096);
  private static final Set<String> ANSWERED = Set.of("default");

  @Test
  void pushesTheNodesShareAsTotalAndRecordsWhatYarnUsesAndMayStillTake() {
    NodeView node = node(null, false);
    NodeManagerReport registered = report(new YarnResources(8, 8192), new YarnResources(1, 512));

    SyncPlan plan = SyncPlan.plan(List.of(node), Map.of(NM, registered), ANSWERED);

    assertThat(plan.pushes()).containsExactly(new SyncPlan.Push("a", NM, TOTAL, true));
    assertThat(plan.pulls()).singleElement().satisfies(pull -> {
      assertThat(pull.used()).isEqualTo(new YarnResources(1, 512));
      assertThat(pull.reserved()).as("until the lowering is read back, YARN may still fill its old total")
          .isEqualTo(new YarnResources(7, 7680));
      assertThat(pull.previous()).isNull();
    });

    NodeManagerReport lowered = report(TOTAL, new YarnResources(1, 512));
    SyncPlan afterLowering = SyncPlan.plan(List.of(node), Map.of(NM, lowered), ANSWERED);
    assertThat(afterLowering.pulls()).singleElement().satisfies(pull ->
        assertThat(pull.reserved()).isEqualTo(new YarnResources(3, 3584)));
  }

  @Test
  void aRaiseIsRecordedOnTheNodeBeforeItIsPushed() {
    NodeManagerReport held = report(new YarnResources(1, 512), new YarnResources(1, 512));

    SyncPlan record = SyncPlan.plan(List.of(node(null, false)), Map.of(NM, held), ANSWERED);
    assertThat(record.pushes()).isEmpty();
    assertThat(record.pulls()).singleElement().satisfies(pull -> {
      assertThat(pull.used()).isEqualTo(new YarnResources(1, 512));
      assertThat(pull.reserved()).isEqualTo(new YarnResources(3, 3584));
    });

    String recorded = record.pulls().get(0).allocations();
    SyncPlan raise = SyncPlan.plan(List.of(node(recorded, false)), Map.of(NM, held), ANSWERED);
    assertThat(raise.pushes()).containsExactly(new SyncPlan.Push("a", NM, TOTAL, false));
    assertThat(raise.pulls()).as("already recorded").isEmpty();
  }

  @Test
  void whileKubernetesBatchPodsWaitYarnKeepsOnlyWhatItUses() {
    NodeManagerReport report = report(TOTAL, new YarnResources(1, 2048));

    SyncPlan plan = SyncPlan.plan(List.of(node(null, true)), Map.of(NM, report), ANSWERED);

    assertThat(plan.pushes()).containsExactly(new SyncPlan.Push("a", NM, new YarnResources(1, 2048), true));
    assertThat(plan.lowersAny()).isTrue();
  }

  @Test
  void steadyStatePlansNothing() {
    String recorded = ThirdPartyAllocations.withYarn(null, new YarnResources(1, 512), new YarnResources(3, 3584));
    NodeManagerReport report = report(TOTAL, new YarnResources(1, 512));

    SyncPlan plan = SyncPlan.plan(List.of(node(recorded, false)), Map.of(NM, report), ANSWERED);

    assertThat(plan.pushes()).isEmpty();
    assertThat(plan.pulls()).isEmpty();
  }

  @Test
  void aNodeManagerThatIsNotRunningGetsNoPushButItsUseIsStillRecorded() {
    NodeManagerReport unhealthy = new NodeManagerReport(NM, false, new YarnResources(8, 8192), new YarnResources(2, 1024));

    SyncPlan plan = SyncPlan.plan(List.of(node(null, false)), Map.of(NM, unhealthy), ANSWERED);

    assertThat(plan.pushes()).isEmpty();
    assertThat(plan.pulls()).singleElement().satisfies(pull -> {
      assertThat(pull.used()).isEqualTo(new YarnResources(2, 1024));
      assertThat(pull.reserved()).isEqualTo(YarnResources.ZERO);
    });
  }

  @Test
  void silentResourceManagerOrUnregisteredNodeManagerLeavesTheRecordAlone() {
    String recorded = ThirdPartyAllocations.withYarn(null, new YarnResources(3, 3072), YarnResources.ZERO);
    NodeView node = node(recorded, false);
    NodeManagerReport report = report(new YarnResources(8, 8192), YarnResources.ZERO);

    assertThat(SyncPlan.plan(List.of(node), Map.of(NM, report), Set.of()))
        .isEqualTo(new SyncPlan(List.of(), List.of()));
    assertThat(SyncPlan.plan(List.of(node), Map.of(), ANSWERED)).isEqualTo(new SyncPlan(List.of(), List.of()));
  }

  @Test
  void aNodeWithoutNodeManagerIsUntouchedUnlessYarnHadARecordThere() {
    NodeView never = new NodeView("plain", Optional.empty(), SHARE, "{\"allocations\":[]}", false);
    String recorded = ThirdPartyAllocations.withYarn(null, new YarnResources(3, 3072), new YarnResources(1, 1024));
    NodeView left = new NodeView("left", Optional.empty(), SHARE, recorded, false);

    SyncPlan plan = SyncPlan.plan(List.of(never, left), Map.of(), Set.of());

    assertThat(plan.pushes()).isEmpty();
    assertThat(plan.pulls()).singleElement().satisfies(pull -> {
      assertThat(pull.node()).isEqualTo("left");
      assertThat(pull.used()).isEqualTo(YarnResources.ZERO);
      assertThat(ThirdPartyAllocations.yarnHeld(pull.allocations())).isEqualTo(BatchResources.ZERO);
      assertThat(pull.previous()).isEqualTo(recorded);
    });
  }

  private static NodeView node(String allocations, boolean batchPodsWaiting) {
    return new NodeView("a", Optional.of(NM), SHARE, allocations, batchPodsWaiting);
  }

  private static NodeManagerReport report(YarnResources total, YarnResources used) {
    return new NodeManagerReport(NM, true, total, used);
  }
}
