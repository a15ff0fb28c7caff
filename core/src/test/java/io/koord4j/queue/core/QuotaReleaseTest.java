package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.group;
import static io.koord4j.queue.core.Fixtures.leaf;
import static io.koord4j.queue.core.Fixtures.newCore;
import static io.koord4j.queue.core.Fixtures.singleTeam;
import static io.koord4j.queue.core.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Quota is released only once what held it is really gone: terminating pods, removed quotas. */
class QuotaReleaseTest {

  @Test
  void aJobWhosePodsStillTerminateKeepsItsQuotaUntilTheyAreGone() {
    AdmissionCore core = singleTeam(4);
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 3));
    core.upsertUnit(unit("ns/b", "q", "team", 0, 1, 3));
    core.pass(at(1));

    core.holdUntilReleased("ns/a", at(2));
    AdmissionPass whilePodsTerminate = core.pass(at(3));

    assertThat(whilePodsTerminate.admitted()).isEmpty();
    assertThat(core.used("team")).isEqualTo(cpu(3));
    core.markFinished("ns/a");
    assertThat(core.pass(at(4)).admitted()).containsExactly("ns/b");
  }

  @Test
  void aDeletedUnitWhosePodsTerminateIsChargedEvenIfItNeverWasAdmitted() {
    AdmissionCore core = singleTeam(4);
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 3));
    core.upsertUnit(unit("ns/b", "q", "team", 0, 1, 3));
    core.requeue("ns/a", at(0));

    core.holdUntilReleased("ns/a", at(1));

    assertThat(core.used("team")).isEqualTo(cpu(3));
    assertThat(core.pass(at(2)).admitted()).isEmpty();
    core.removeUnit("ns/a");
    assertThat(core.pass(at(3)).admitted()).containsExactly("ns/b");
  }

  @Test
  void aUnitWhosePodsTerminateIsNeverChosenAsAVictim() {
    AdmissionCore core = singleTeam(4);
    core.upsertQueue(QueueConfig.of("q").withPreemption());
    core.upsertUnit(unit("ns/low", "q", "team", 0, 0, 4));
    core.pass(at(1));
    core.holdUntilReleased("ns/low", at(2));
    core.upsertUnit(unit("ns/high", "q", "team", 10, 3, 4));

    AdmissionPass pass = core.pass(at(4));

    assertThat(pass.preemptions()).isEmpty();
    assertThat(pass.waiting().get("ns/high").reason()).isInstanceOf(WaitReason.QuotaShortage.class);
  }

  @Test
  void aRemovedQuotaStaysChargedToItsParentUntilItsUnitsAreReleased() {
    AdmissionCore core = twoTeamsUnder("top", 4);
    core.upsertUnit(unit("ns/x1", "q", "x", 0, 0, 3));
    core.pass(at(1));

    core.setQuotas(List.of(group("top", "", 4, 4), leaf("y", "top", 2, 4)));
    core.upsertUnit(unit("ns/y1", "q", "y", 0, 2, 2));
    core.upsertUnit(unit("ns/x2", "q", "x", 0, 3, 1));
    AdmissionPass whileHeld = core.pass(at(4));

    assertThat(whileHeld.admitted()).isEmpty();
    assertThat(core.used("top")).isEqualTo(cpu(3));
    assertThat(whileHeld.waiting().get("ns/x2").reason())
        .isEqualTo(new WaitReason.UnusableQuota("x"));

    core.markFinished("ns/x1");
    AdmissionPass released = core.pass(at(5));
    assertThat(released.admitted()).containsExactly("ns/y1");
    assertThat(core.used("top")).isEqualTo(cpu(2));
    assertThat(core.pass(at(6)).waiting().get("ns/x2").reason())
        .isEqualTo(new WaitReason.UnusableQuota("x"));
  }

  @Test
  void anAdmittedUnitStaysInItsRemovedQuotaWhenItWouldNowResolveElsewhere() {
    AdmissionCore core = twoTeamsUnder("top", 4);
    core.upsertUnit(unit("ns/x1", "q", "x", 0, 0, 3));
    core.pass(at(1));

    core.removeQuota("x");
    core.upsertUnit(unit("ns/x1", "q", "y", 0, 0, 3));
    core.upsertUnit(unit("ns/y1", "q", "y", 0, 2, 2));

    assertThat(core.status("ns/x1").orElseThrow().spec().quota()).isEqualTo("x");
    assertThat(core.pass(at(3)).admitted()).isEmpty();
    assertThat(core.used("top")).isEqualTo(cpu(3));
  }

  @Test
  void aRemovedParentIsKeptWhileALeafUnderItHoldsUnits() {
    AdmissionCore core = newCore();
    core.setClusterTotal(cpu(8));
    core.setQuotas(
        List.of(
            group("top", "", 4, 4),
            group("team", "top", 4, 4),
            leaf("x", "team", 4, 4),
            leaf("z", "", 4, 4)));
    core.upsertQueue(QueueConfig.of("q"));
    core.upsertUnit(unit("ns/x1", "q", "x", 0, 0, 3));
    core.pass(at(1));

    core.setQuotas(List.of(group("top", "", 4, 4), leaf("z", "", 4, 4)));

    assertThat(core.used("team")).isEqualTo(cpu(3));
    assertThat(core.used("top")).isEqualTo(cpu(3));
    assertThat(core.quotaViolations()).isEmpty();
    core.markFinished("ns/x1");
    core.pass(at(3));
    assertThat(core.used("top")).isEqualTo(cpu(0));
  }

  /** A parent quota {@code top} of {@code cores} over leaves x and y of half its min each. */
  private static AdmissionCore twoTeamsUnder(String top, long cores) {
    AdmissionCore core = newCore();
    core.setClusterTotal(cpu(cores * 2));
    core.setQuotas(
        List.of(
            group(top, "", cores, cores),
            leaf("x", top, cores / 2, cores),
            leaf("y", top, cores / 2, cores)));
    core.upsertQueue(QueueConfig.of("q"));
    return core;
  }
}
