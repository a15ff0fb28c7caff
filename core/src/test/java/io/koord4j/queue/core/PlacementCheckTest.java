package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.singleTeam;
import static io.koord4j.queue.core.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A gang no node could ever hold waits, takes no quota, and does not hold back its queue. */
class PlacementCheckTest {
  private final Map<String, String> misfits = new HashMap<>();

  /** A team of 8 CPUs whose placement check refuses the units in {@link #misfits}. */
  private AdmissionCore judgedCore() {
    AdmissionCore core = singleTeam(8);
    core.setPlacementCheck(id -> Optional.ofNullable(misfits.get(id)));
    return core;
  }

  @Test
  void aGangNoNodeCouldHoldWaitsWithTheReasonAndTakesNoQuota() {
    AdmissionCore core = judgedCore();
    misfits.put("ns/a", "pod set main: 0 of 1 pods placed; node n1: needs 64 CPU, has 32");
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 2));

    AdmissionPass pass = core.pass(at(1));

    assertThat(pass.admitted()).isEmpty();
    assertThat(core.used("team")).isEqualTo(cpu(0));
    assertThat(pass.waiting().get("ns/a").reason())
        .isInstanceOf(WaitReason.Unplaceable.class);
    assertThat(pass.waiting().get("ns/a").reason().message())
        .isEqualTo("the gang does not fit even on empty nodes: "
            + "pod set main: 0 of 1 pods placed; node n1: needs 64 CPU, has 32");
  }

  @Test
  void itIsAdmittedOnceTheNodesCouldHoldIt() {
    AdmissionCore core = judgedCore();
    misfits.put("ns/a", "no node accepts the pods");
    core.upsertUnit(unit("ns/a", "q", "team", 0, 0, 2));
    core.pass(at(1));

    misfits.clear();

    assertThat(core.pass(at(2)).admitted()).containsExactly("ns/a");
  }

  @Test
  void inABlockQueueItDoesNotHoldBackLaterUnitsOfItsQuota() {
    AdmissionCore core = judgedCore();
    core.upsertQueue(QueueConfig.of("q").withPolicy(QueuePolicy.BLOCK));
    misfits.put("ns/first", "no node accepts the pods");
    core.upsertUnit(unit("ns/first", "q", "team", 0, 0, 2));
    core.upsertUnit(unit("ns/second", "q", "team", 0, 1, 2));

    assertThat(core.pass(at(2)).admitted()).containsExactly("ns/second");
  }
}
