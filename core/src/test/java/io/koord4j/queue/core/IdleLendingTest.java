package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.group;
import static io.koord4j.queue.core.Fixtures.leaf;
import static io.koord4j.queue.core.Fixtures.newCore;
import static io.koord4j.queue.core.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.quota.QuotaSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Units larger than their leaf's runtime share: the runtime split gives every leaf with work
 * queued its min here, so such a unit would wait for as long as its siblings have work queued,
 * with the cluster idle. Idle room is lent to it instead, and reclaimed like any borrowed quota.
 */
class IdleLendingTest {

  /** A root of 24 CPU over two parents of min 12, each over two leaves of min 6 and max 24. */
  private static AdmissionCore tree(QuotaSpec... extra) {
    AdmissionCore core = newCore();
    core.setClusterTotal(cpu(24));
    core.upsertQuota(group("top", "", 24, 24));
    for (String half : List.of("a", "b")) {
      core.upsertQuota(group(half, "top", 12, 24));
      for (int i = 1; i <= 2; i++) {
        core.upsertQuota(leaf(half + i, half, 6, 24));
        core.upsertQueue(QueueConfig.of("q-" + half + i));
      }
    }
    for (QuotaSpec spec : extra) {
      core.upsertQuota(spec);
    }
    return core;
  }

  @Test
  void gangsLargerThanEveryLeafsShareAreAdmittedWhileTheClusterHasRoomForThem() {
    AdmissionCore core = tree();
    core.upsertUnit(unit("ns/a1-big", "q-a1", "a1", 0, 0, 8));
    core.upsertUnit(unit("ns/a2-big", "q-a2", "a2", 0, 1, 8));
    core.upsertUnit(unit("ns/b1-big", "q-b1", "b1", 0, 2, 7));
    core.upsertUnit(unit("ns/b2-big", "q-b2", "b2", 0, 3, 8));
    assertThat(core.runtime("a1")).isEqualTo(cpu(6));

    AdmissionPass pass = core.pass(at(10));

    assertThat(pass.admitted()).containsExactlyInAnyOrder("ns/a1-big", "ns/a2-big", "ns/b1-big");
    assertThat(core.used("top")).isEqualTo(cpu(23));
    assertThat(pass.waiting().get("ns/b2-big").reason()).isInstanceOf(WaitReason.QuotaShortage.class);
  }

  @Test
  void aUnitThatFitsItsShareTakesLentQuotaBack() {
    AdmissionCore core = tree();
    core.upsertUnit(unit("ns/a1-big", "q-a1", "a1", 0, 0, 20));
    core.upsertUnit(unit("ns/b1-waiting", "q-b1", "b1", 0, 1, 30));
    assertThat(core.pass(at(10)).admitted()).containsExactly("ns/a1-big");

    core.upsertUnit(unit("ns/b2-small", "q-b2", "b2", 0, 20, 5));
    AdmissionPass pass = core.pass(at(21));

    assertThat(pass.admitted()).isEmpty();
    assertThat(pass.preemptions()).extracting(Preemption::unitId).containsExactly("ns/a1-big");
  }

  @Test
  void nothingIsLentWhilePreemptionsAreAwaited() {
    AdmissionCore core = tree();
    core.upsertUnit(unit("ns/a1-big", "q-a1", "a1", 0, 0, 20));
    core.pass(at(10));
    core.upsertUnit(unit("ns/b2-small", "q-b2", "b2", 0, 20, 5));
    core.upsertUnit(unit("ns/a2-big", "q-a2", "a2", 0, 21, 7));
    assertThat(core.pass(at(22)).preemptions()).extracting(Preemption::unitId).containsExactly("ns/a1-big");

    core.requeue("ns/a1-big", at(30));
    AdmissionPass pass = core.pass(at(31));

    assertThat(pass.admitted()).contains("ns/b2-small");
  }

  @Test
  void theUnusedMinOfAQuotaThatDoesNotLendIsNotLent() {
    AdmissionCore core = newCore();
    core.setClusterTotal(cpu(24));
    core.upsertQuota(group("top", "", 24, 24));
    core.upsertQuota(leaf("keeper", "top", 12, 24).withoutLending());
    core.upsertQuota(leaf("sharer", "top", 6, 24));
    core.upsertQuota(leaf("other", "top", 6, 24));
    List.of("keeper", "sharer", "other").forEach(name -> core.upsertQueue(QueueConfig.of("q-" + name)));
    core.upsertUnit(unit("ns/other-big", "q-other", "other", 0, 1, 20));
    core.upsertUnit(unit("ns/sharer-big", "q-sharer", "sharer", 0, 2, 12));

    AdmissionPass pass = core.pass(at(10));

    // The 12 "keeper" keeps for itself leave 12 to lend: one unit of 12, none of 20.
    assertThat(pass.admitted()).containsExactly("ns/sharer-big");
    assertThat(core.used("top")).isEqualTo(cpu(12));
  }
}
