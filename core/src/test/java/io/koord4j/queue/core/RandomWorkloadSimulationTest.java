package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.group;
import static io.koord4j.queue.core.Fixtures.leaf;
import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.QuotaTree;
import io.koord4j.quota.ResourceVector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hundreds of units arrive, are admitted, run, finish and are preempted in a two-org tree, with a
 * mix of queue policies; after every pass the quota invariants must hold.
 */
class RandomWorkloadSimulationTest {

  private static final List<String> ORGS = List.of("org-x", "org-y");
  private static final int TEAMS_PER_ORG = 3;
  private static final ResourceVector CLUSTER = cpu(60);

  private final SplittableRandom random = new SplittableRandom(2025);
  private final List<QuotaSpec> quotas = new ArrayList<>();
  private final Map<String, String> parentOf = new LinkedHashMap<>();
  private final List<QueueConfig> queues = new ArrayList<>();
  private final Map<String, UnitSpec> live = new LinkedHashMap<>();
  private final Set<String> victimsInFlight = new HashSet<>();
  private AdmissionCore core;

  @Test
  void quotaIsNeverOverCommittedAndNeverCountedTwice() {
    buildTreeAndQueues();
    core = configuredCore();
    Instant now = at(0);
    int admissions = 0;
    int preemptions = 0;
    for (int step = 0; step < 600; step++) {
      now = now.plusSeconds(5);
      arrive(step, now);
      finishOrStartSomeUnits();
      confirmSomePreemptions(now);
      AdmissionPass pass = core.pass(now);
      checkInvariants(pass);
      admissions += pass.admitted().size();
      preemptions += pass.preemptions().size();
    }
    assertThat(admissions).isGreaterThan(100);
    assertThat(preemptions).isGreaterThan(10);
    checkReplayGivesTheSameUsedAmounts();
  }

  private void buildTreeAndQueues() {
    for (String org : ORGS) {
      quotas.add(group(org, "", 30, 60));
      parentOf.put(org, QuotaTree.ROOT);
      for (int t = 1; t <= TEAMS_PER_ORG; t++) {
        String team = org + "-team-" + t;
        quotas.add(leaf(team, org, 10, 30));
        parentOf.put(team, org);
        QueueConfig queue =
            QueueConfig.of(team)
                .withPolicy(random.nextBoolean() ? QueuePolicy.BLOCK : QueuePolicy.PRIORITY)
                .withPriority(random.nextInt(2));
        queue = random.nextBoolean() ? queue.withPreemption() : queue;
        queue = random.nextInt(4) == 0 ? queue.withWaitForPodsRunning() : queue;
        queues.add(queue);
      }
    }
  }

  private AdmissionCore configuredCore() {
    AdmissionCore fresh = new AdmissionCore(new SplittableRandom(1));
    fresh.setClusterTotal(CLUSTER);
    fresh.setQuotas(quotas);
    queues.forEach(fresh::upsertQueue);
    return fresh;
  }

  private void arrive(int step, Instant now) {
    if (random.nextInt(10) < 6) {
      QueueConfig queue = queues.get(random.nextInt(queues.size()));
      UnitSpec spec =
          new UnitSpec(
              "ns/u" + step, queue.name(), queue.name(), random.nextInt(4), now,
              cpu(1 + random.nextInt(12)), 1);
      live.put(spec.id(), spec);
      core.upsertUnit(spec);
    }
  }

  private void finishOrStartSomeUnits() {
    for (String id : List.copyOf(live.keySet())) {
      UnitStatus status = core.status(id).orElseThrow();
      if (status.phase() == UnitPhase.ADMITTED && !status.preempting()) {
        if (random.nextInt(20) == 0) {
          core.markFinished(id);
          core.removeUnit(id);
          live.remove(id);
        } else if (random.nextInt(3) == 0) {
          core.markPodsRunning(id);
        }
      }
    }
  }

  private void confirmSomePreemptions(Instant now) {
    for (String victim : List.copyOf(victimsInFlight)) {
      if (random.nextInt(10) < 7) {
        core.requeue(victim, now);
        victimsInFlight.remove(victim);
      }
    }
  }

  private void checkInvariants(AdmissionPass pass) {
    for (String quota : parentOf.keySet()) {
      ResourceVector max = specOf(quota).max();
      assertThat(core.used(quota).fitsIn(max)).as("used of %s within max", quota).isTrue();
    }
    assertThat(core.used(QuotaTree.ROOT).fitsIn(CLUSTER)).as("used within the cluster").isTrue();
    // Beyond a runtime share only by idle room, which is never lent while preemptions are awaited.
    boolean mayLendIdle = pass.preemptions().isEmpty() && victimsInFlight.isEmpty();
    for (String id : pass.admitted()) {
      for (String q = live.get(id).quota(); !q.equals(QuotaTree.ROOT); q = parentOf.get(q)) {
        assertThat(mayLendIdle || core.used(q).fitsIn(core.runtime(q)))
            .as("admitting %s keeps %s within its runtime", id, q)
            .isTrue();
      }
    }
    for (Preemption p : pass.preemptions()) {
      assertThat(victimsInFlight.add(p.unitId())).as("%s preempted once", p.unitId()).isTrue();
      assertThat(core.status(p.unitId()).orElseThrow().phase()).isEqualTo(UnitPhase.ADMITTED);
    }
    ResourceVector admittedTotal = ResourceVector.EMPTY;
    int waiting = 0;
    for (String id : live.keySet()) {
      UnitPhase phase = core.status(id).orElseThrow().phase();
      if (phase == UnitPhase.ADMITTED) {
        admittedTotal = admittedTotal.add(live.get(id).request());
        assertThat(pass.waiting()).doesNotContainKey(id);
      } else {
        assertThat(pass.waiting().get(id).reason()).as("reason for %s", id).isNotNull();
        waiting++;
      }
    }
    assertThat(pass.waiting()).hasSize(waiting);
    assertThat(core.used(QuotaTree.ROOT).get("cpu")).isEqualTo(admittedTotal.get("cpu"));
  }

  private void checkReplayGivesTheSameUsedAmounts() {
    AdmissionCore restarted = configuredCore();
    for (String id : live.keySet()) {
      UnitStatus status = core.status(id).orElseThrow();
      restarted.upsertUnit(status.spec());
      if (status.phase() == UnitPhase.ADMITTED) {
        restarted.markAdmitted(id, status.admittedAt());
      }
    }
    for (String quota : parentOf.keySet()) {
      assertThat(restarted.used(quota)).as("used of %s", quota).isEqualTo(core.used(quota));
      assertThat(restarted.runtime(quota))
          .as("runtime of %s", quota)
          .isEqualTo(core.runtime(quota));
    }
  }

  private QuotaSpec specOf(String quota) {
    return quotas.stream().filter(s -> s.name().equals(quota)).findFirst().orElseThrow();
  }
}
