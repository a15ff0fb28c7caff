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

  @Test
  void pushesAChangedTotalAndRecordsWhatYarnUses() {
    NodeView node = new NodeView("a", Optional.of(NM), SHARE, null, false);
    NodeManagerReport report = new NodeManagerReport(NM, true, new YarnResources(8, 8192), new YarnResources(1, 512));

    SyncPlan plan = SyncPlan.plan(List.of(node), Map.of(NM, report), Set.of("default"));

    assertThat(plan.pushes()).containsExactly(new SyncPlan.Push("a", NM, TOTAL, true));
    assertThat(plan.pulls()).singleElement().satisfies(pull -> {
      assertThat(pull.used()).isEqualTo(new YarnResources(1, 512));
      assertThat(pull.previous()).isNull();
    });
  }

  @Test
  void whileKubernetesBatchPodsWaitYarnKeepsOnlyWhatItUses() {
    NodeView node = new NodeView("a", Optional.of(NM), SHARE, null, true);
    NodeManagerReport report = new NodeManagerReport(NM, true, TOTAL, new YarnResources(1, 2048));

    SyncPlan plan = SyncPlan.plan(List.of(node), Map.of(NM, report), Set.of("default"));

    assertThat(plan.pushes()).containsExactly(new SyncPlan.Push("a", NM, new YarnResources(1, 2048), true));
    assertThat(plan.lowersAny()).isTrue();
  }

  @Test
  void withNothingWaitingYarnGetsItsWholeShareBack() {
    NodeView node = new NodeView("a", Optional.of(NM), SHARE, null, false);
    NodeManagerReport report = new NodeManagerReport(NM, true, new YarnResources(1, 2048), new YarnResources(1, 2048));

    SyncPlan plan = SyncPlan.plan(List.of(node), Map.of(NM, report), Set.of("default"));

    assertThat(plan.pushes()).containsExactly(new SyncPlan.Push("a", NM, TOTAL, false));
    assertThat(plan.lowersAny()).isFalse();
  }

  @Test
  void steadyStatePlansNothing() {
    String recorded = ThirdPartyAllocations.withYarn(null, new YarnResources(1, 512));
    NodeView node = new NodeView("a", Optional.of(NM), SHARE, recorded, false);
    NodeManagerReport report = new NodeManagerReport(NM, true, TOTAL, new YarnResources(1, 512));

    SyncPlan plan = SyncPlan.plan(List.of(node), Map.of(NM, report), Set.of("default"));

    assertThat(plan.pushes()).isEmpty();
    assertThat(plan.pulls()).isEmpty();
  }

  @Test
  void aNodeManagerThatIsNotRunningGetsNoPushButItsUseIsStillRecorded() {
    NodeView node = new NodeView("a", Optional.of(NM), SHARE, null, false);
    NodeManagerReport unhealthy = new NodeManagerReport(NM, false, new YarnResources(8, 8192), new YarnResources(2, 1024));

    SyncPlan plan = SyncPlan.plan(List.of(node), Map.of(NM, unhealthy), Set.of("default"));

    assertThat(plan.pushes()).isEmpty();
    assertThat(plan.pulls()).extracting(SyncPlan.Pull::used).containsExactly(new YarnResources(2, 1024));
  }

  @Test
  void silentResourceManagerOrUnregisteredNodeManagerLeavesTheRecordAlone() {
    String recorded = ThirdPartyAllocations.withYarn(null, new YarnResources(3, 3072));
    NodeView node = new NodeView("a", Optional.of(NM), SHARE, recorded, false);
    NodeManagerReport report = new NodeManagerReport(NM, true, new YarnResources(8, 8192), YarnResources.ZERO);

    assertThat(SyncPlan.plan(List.of(node), Map.of(NM, report), Set.of())).isEqualTo(new SyncPlan(List.of(), List.of()));
    assertThat(SyncPlan.plan(List.of(node), Map.of(), Set.of("default"))).isEqualTo(new SyncPlan(List.of(), List.of()));
  }

  @Test
  void aNodeWithoutNodeManagerIsUntouchedUnlessYarnHadARecordThere() {
    NodeView never = new NodeView("plain", Optional.empty(), SHARE, "{\"allocations\":[]}", false);
    String recorded = ThirdPartyAllocations.withYarn(null, new YarnResources(3, 3072));
    NodeView left = new NodeView("left", Optional.empty(), SHARE, recorded, false);

    SyncPlan plan = SyncPlan.plan(List.of(never, left), Map.of(), Set.of());

    assertThat(plan.pushes()).isEmpty();
    assertThat(plan.pulls()).singleElement().satisfies(pull -> {
      assertThat(pull.node()).isEqualTo("left");
      assertThat(pull.used()).isEqualTo(YarnResources.ZERO);
      assertThat(pull.previous()).isEqualTo(recorded);
    });
  }
}
