package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.leaf;
import static io.koord4j.queue.core.Fixtures.newCore;
import static io.koord4j.queue.core.Fixtures.singleTeam;
import static io.koord4j.queue.core.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Pods that no unit owns, charged to their quota next to the units. */
class ChargedPodsTest {

  @Test
  void aPlacedPodCountsAsUsedAndAPendingOneAsDemand() {
    AdmissionCore core = singleTeam(10);

    core.upsertPod("p1", new ChargedPod("team", cpu(2), true));
    core.upsertPod("p2", new ChargedPod("team", cpu(3), false));

    assertThat(core.used("team").get("cpu")).isEqualTo(2_000);
    assertThat(core.request("team").get("cpu")).isEqualTo(5_000);

    core.upsertPod("p2", new ChargedPod("team", cpu(3), true));
    assertThat(core.used("team").get("cpu")).isEqualTo(5_000);

    core.removePod("p1");
    core.removePod("p2");
    assertThat(core.used("team").get("cpu")).isZero();
    assertThat(core.request("team").get("cpu")).isZero();
  }

  @Test
  void whatPodsUseIsNotAdmittedAgainToUnits() {
    AdmissionCore core = singleTeam(10);
    core.upsertQueue(QueueConfig.of("q"));
    core.upsertPod("p1", new ChargedPod("team", cpu(8), true));
    core.upsertUnit(unit("ns/job", "q", "team", 0, 0, 3));

    AdmissionPass pass = core.pass(at(1));

    assertThat(pass.admitted()).isEmpty();
    assertThat(pass.waiting().get("ns/job").reason().message())
        .isEqualTo("quota \"team\" has 2 of cpu available, 3 requested");
  }

  @Test
  void aPodOfAQuotaCreatedLaterIsChargedOnceTheQuotaExists() {
    AdmissionCore core = newCore();
    core.setClusterTotal(cpu(10));
    core.upsertPod("p1", new ChargedPod("late", cpu(1), true));

    core.setQuotas(List.of(leaf("late", "", 4, 4)));

    assertThat(core.used("late").get("cpu")).isEqualTo(1_000);
  }
}
