package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.singleTeam;
import static io.koord4j.queue.core.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Units whose namespace may not charge their quota: they wait, saying why, and weigh on nothing. */
class QuotaNotBoundTest {
  private static final String REFUSAL = "quota \"team\" is not bound to namespace \"other\"";

  @Test
  void aUnitThatMayNotChargeItsQuotaWaitsSayingWhyAndIsNoDemandOfIt() {
    AdmissionCore core = singleTeam(8);
    core.upsertUnit(refused("other/stranger", 0, 4));

    AdmissionPass pass = core.pass(at(1));

    assertThat(pass.admitted()).isEmpty();
    assertThat(pass.waiting().get("other/stranger").reason()).isEqualTo(new WaitReason.QuotaNotBound(REFUSAL));
    assertThat(core.request("team").isZero()).isTrue();
  }

  @Test
  void itNeverBlocksTheUnitsBehindItInABlockQueue() {
    AdmissionCore core = singleTeam(8);
    core.upsertQueue(QueueConfig.of("q").withPolicy(QueuePolicy.BLOCK));
    core.upsertUnit(refused("other/stranger", 0, 12));
    core.upsertUnit(unit("team/own", "q", "team", 0, 1, 4));

    assertThat(core.pass(at(2)).admitted()).containsExactly("team/own");
  }

  @Test
  void itsQuotaShowsItUsedWhileTheClusterShowsItAdmittedAndFreesItOnce() {
    AdmissionCore core = singleTeam(8);
    core.upsertUnit(refused("other/earlier", 0, 4));
    core.markAdmitted("other/earlier", at(1));

    assertThat(core.used("team")).isEqualTo(cpu(4));

    core.markFinished("other/earlier");
    assertThat(core.used("team").isZero()).isTrue();
    assertThat(core.request("team").isZero()).isTrue();
  }

  @Test
  void itIsAdmittedOnceItsNamespaceIsBound() {
    AdmissionCore core = singleTeam(8);
    core.upsertUnit(refused("other/stranger", 0, 4));
    core.pass(at(1));

    core.upsertUnit(unit("other/stranger", "q", "team", 0, 0, 4));

    assertThat(core.pass(at(2)).admitted()).containsExactly("other/stranger");
  }

  private static UnitSpec refused(String id, long arrival, long cores) {
    UnitSpec spec = unit(id, "q", "team", 0, arrival, cores);
    return new UnitSpec(spec.id(), spec.queue(), spec.quota(), spec.priority(), spec.arrival(), spec.request(),
        spec.podSetCount(), null, REFUSAL);
  }
}
