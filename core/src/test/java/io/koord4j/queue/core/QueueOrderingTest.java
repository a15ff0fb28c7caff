package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.leaf;
import static io.koord4j.queue.core.Fixtures.newCore;
import static io.koord4j.queue.core.Fixtures.singleTeam;
import static io.koord4j.queue.core.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which units a pass admits, and in what order, under the queue policies and priorities. */
class QueueOrderingTest {

  /** team has 10 CPUs; "running" holds 5, "big" wants 8, "small" wants 3. */
  private static AdmissionCore bigUnitWaitingBehindRunningOne(QueuePolicy policy) {
    AdmissionCore core = singleTeam(10);
    core.upsertQueue(QueueConfig.of("q").withPolicy(policy));
    core.upsertUnit(unit("ns/running", "q", "team", 0, 0, 5));
    core.pass(at(1));
    core.upsertUnit(unit("ns/big", "q", "team", 0, 2, 8));
    core.upsertUnit(unit("ns/small", "q", "team", 0, 3, 3));
    return core;
  }

  @Test
  void priorityPolicyLetsASmallerUnitPassOneThatDoesNotFit() {
    AdmissionCore core = bigUnitWaitingBehindRunningOne(QueuePolicy.PRIORITY);

    AdmissionPass pass = core.pass(at(4));

    assertThat(pass.admitted()).containsExactly("ns/small");
    assertThat(pass.waiting().get("ns/big").reason().message())
        .isEqualTo("quota \"team\" has 5 of cpu available, 8 requested");
  }

  @Test
  void blockPolicyHoldsLaterUnitsOfTheSameQuotaBehindTheOneThatDoesNotFit() {
    AdmissionCore core = bigUnitWaitingBehindRunningOne(QueuePolicy.BLOCK);

    AdmissionPass pass = core.pass(at(4));

    assertThat(pass.admitted()).isEmpty();
    assertThat(pass.waiting().get("ns/small").reason().message())
        .isEqualTo("blocked behind ns/big (Block policy)");

    core.markFinished("ns/running");
    assertThat(core.pass(at(5)).admitted()).containsExactly("ns/big");
  }

  @Test
  void legacyFifoPolicyDoesNotBlockAsInKoordQueue() {
    assertThat(QueuePolicy.fromSpec("FIFO")).isEqualTo(QueuePolicy.PRIORITY);
    assertThat(QueuePolicy.fromSpec(null)).isEqualTo(QueuePolicy.PRIORITY);
    assertThat(QueuePolicy.fromSpec("Block")).isEqualTo(QueuePolicy.BLOCK);
  }

  @Test
  void blockPolicyDoesNotHoldBackUnitsOfAnotherQuota() {
    AdmissionCore core = newCore();
    core.setClusterTotal(cpu(20));
    core.upsertQuota(leaf("team-a", "", 10, 10));
    core.upsertQuota(leaf("team-b", "", 10, 10));
    core.upsertQueue(QueueConfig.of("q").withPolicy(QueuePolicy.BLOCK));
    core.upsertUnit(unit("ns/too-big", "q", "team-a", 5, 0, 11));
    core.upsertUnit(unit("ns/other", "q", "team-b", 0, 1, 4));

    assertThat(core.pass(at(2)).admitted()).containsExactly("ns/other");
  }

  @Test
  void unitsGoByPriorityThenArrivalAndReportTheirPositions() {
    AdmissionCore core = singleTeam(4);
    core.upsertUnit(unit("ns/early-low", "q", "team", 0, 0, 4));
    core.upsertUnit(unit("ns/late-high", "q", "team", 10, 5, 4));
    core.upsertUnit(unit("ns/late-low", "q", "team", 0, 6, 4));

    AdmissionPass pass = core.pass(at(7));

    assertThat(pass.admitted()).containsExactly("ns/late-high");
    assertThat(pass.waiting().values())
        .extracting(WaitingUnit::unitId, WaitingUnit::position)
        .containsExactly(
            tuple("ns/early-low", 1),
            tuple("ns/late-low", 2));
  }

  @Test
  void higherPriorityQueueIsServedFirst() {
    AdmissionCore core = singleTeam(4);
    core.upsertQueue(QueueConfig.of("urgent").withPriority(10));
    core.upsertUnit(unit("ns/routine", "q", "team", 100, 0, 4));
    core.upsertUnit(unit("ns/urgent", "urgent", "team", 0, 9, 4));

    assertThat(core.pass(at(10)).admitted()).containsExactly("ns/urgent");
  }

  @Test
  void queuesOfEqualPriorityShareFreeQuotaTurnByTurn() {
    AdmissionCore core = singleTeam(4);
    core.upsertQueue(QueueConfig.of("other"));
    for (int i = 0; i < 4; i++) {
      core.upsertUnit(unit("ns/q-" + i, "q", "team", 0, i, 1));
      core.upsertUnit(unit("ns/other-" + i, "other", "team", 0, i, 1));
    }

    AdmissionPass pass = core.pass(at(10));

    assertThat(pass.admitted()).hasSize(4);
    assertThat(pass.admitted()).filteredOn(id -> id.startsWith("ns/q-")).hasSize(2);
  }

  @Test
  void aQueueWhoseHeadDoesNotFitDoesNotStallAnotherQueue() {
    AdmissionCore core = newCore();
    core.setClusterTotal(cpu(20));
    core.upsertQuota(leaf("team-a", "", 10, 10));
    core.upsertQuota(leaf("team-b", "", 10, 10));
    core.upsertQueue(QueueConfig.of("qa").withPolicy(QueuePolicy.BLOCK).withPriority(5));
    core.upsertQueue(QueueConfig.of("qb"));
    core.upsertUnit(unit("ns/huge", "qa", "team-a", 0, 0, 12));
    core.upsertUnit(unit("ns/b", "qb", "team-b", 0, 1, 2));

    assertThat(core.pass(at(2)).admitted()).containsExactly("ns/b");
  }

  @Test
  void aUnitIsAdmittedWholeOrNotAtAll() {
    AdmissionCore core = newCore();
    core.setClusterTotal(ResourceVector.of("cpu", 10_000, "nvidia.com/gpu", 4));
    core.upsertQuota(
        QuotaSpec.leaf(
            "team",
            "",
            ResourceVector.of("cpu", 10_000, "nvidia.com/gpu", 4),
            ResourceVector.of("cpu", 10_000, "nvidia.com/gpu", 4)));
    core.upsertQueue(QueueConfig.of("q"));
    ResourceVector gang = ResourceVector.of("cpu", 2_000, "nvidia.com/gpu", 8);
    core.upsertUnit(new UnitSpec("ns/gang", "q", "team", 0, at(0), gang, 2));

    AdmissionPass pass = core.pass(at(1));

    assertThat(pass.admitted()).isEmpty();
    assertThat(core.used("team")).isEqualTo(ResourceVector.of("cpu", 0, "nvidia.com/gpu", 0));
    assertThat(pass.waiting().get("ns/gang").reason().message())
        .isEqualTo("quota \"team\" has 4 of nvidia.com/gpu available, 8 requested");
  }

  @Test
  void saysWhenTheQueueOrTheQuotaIsMissing() {
    AdmissionCore core = singleTeam(4);
    core.upsertUnit(unit("ns/lost", "nowhere", "team", 0, 0, 1));
    core.upsertUnit(unit("ns/stray", "q", "no-such-quota", 0, 0, 1));

    Map<String, WaitingUnit> waiting = core.pass(at(1)).waiting();

    assertThat(waiting.get("ns/lost").reason().message())
        .isEqualTo("queue \"nowhere\" does not exist");
    assertThat(waiting.get("ns/stray").reason().message())
        .isEqualTo("quota \"no-such-quota\" does not exist or is a parent quota");
  }

  @Test
  void aQuotaChangeLetsAWaitingUnitIn() {
    AdmissionCore core = singleTeam(4);
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 6));
    assertThat(core.pass(at(1)).admitted()).isEmpty();

    core.setClusterTotal(cpu(8));
    core.upsertQuota(leaf("team", "", 8, 8));

    assertThat(core.pass(at(2)).admitted()).containsExactly("ns/a");
    assertThat(core.used("team")).isEqualTo(cpu(6));
  }

  @Test
  void anInvalidQuotaTreeKeepsTheLastValidOneAndSaysWhy() {
    AdmissionCore core = singleTeam(4);
    assertThat(core.quotaViolations()).isEmpty();
    core.upsertQuota(leaf("orphan", "missing-parent", 1, 1));

    assertThat(core.quotaViolations()).anyMatch(v -> v.contains("orphan"));
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 4));
    assertThat(core.pass(at(1)).admitted()).containsExactly("ns/a");
  }
}
