package io.koord4j.bench;

import io.koord4j.queue.core.AdmissionCore;
import io.koord4j.queue.core.AdmissionPass;
import io.koord4j.queue.core.QueueConfig;
import io.koord4j.queue.core.QueuePolicy;
import io.koord4j.queue.core.UnitSpec;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * B1: the admission core alone. 1,000 leaf quotas in a 3-level tree (10 orgs × 10 departments ×
 * 10 teams), one queue per team, pending units of mixed sizes and priorities.
 *
 * <ul>
 *   <li>{@code firstPass}: a fresh core with every unit pending; one pass admits as much as fits
 *       and gives every other unit its reason and position.
 *   <li>{@code steadyPass}: the same core after that first pass, quotas full: a pass where every
 *       unit is a decision that it waits. Its time per unit is the cost of one decision.
 * </ul>
 */
@State(Scope.Benchmark)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class AdmissionCoreBenchmark {

  static final int ORGS = 10;
  static final int DEPARTMENTS = 10;
  static final int TEAMS = 10;
  private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");

  @Param({"1000", "10000", "100000"})
  public int pendingUnits;

  private AdmissionCore fresh;
  private AdmissionCore full;

  @Setup(Level.Trial)
  public void fillQuotas() {
    full = populatedCore(pendingUnits);
    full.pass(NOW);
  }

  @Setup(Level.Iteration)
  public void enqueueEverything() {
    fresh = populatedCore(pendingUnits);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  public AdmissionPass firstPass() {
    return fresh.pass(NOW);
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  public AdmissionPass steadyPass() {
    return full.pass(NOW);
  }

  static AdmissionCore populatedCore(int units) {
    SplittableRandom random = new SplittableRandom(1);
    AdmissionCore core = new AdmissionCore(random.split());
    core.setClusterTotal(resources(ORGS * DEPARTMENTS * TEAMS * 16L));
    List<String> teams = new ArrayList<>();
    List<QuotaSpec> quotas = new ArrayList<>();
    for (int o = 0; o < ORGS; o++) {
      String org = "org-" + o;
      long orgTeams = DEPARTMENTS * TEAMS;
      quotas.add(QuotaSpec.group(org, "", resources(orgTeams * 16), resources(orgTeams * 32)));
      for (int d = 0; d < DEPARTMENTS; d++) {
        String department = org + "-dept-" + d;
        quotas.add(
            QuotaSpec.group(department, org, resources(TEAMS * 16L), resources(TEAMS * 32L)));
        for (int t = 0; t < TEAMS; t++) {
          String team = department + "-team-" + t;
          quotas.add(QuotaSpec.leaf(team, department, resources(16), resources(32)));
          teams.add(team);
          core.upsertQueue(
              QueueConfig.of(team)
                  .withPriority(random.nextInt(3))
                  .withPolicy(random.nextInt(4) == 0 ? QueuePolicy.BLOCK : QueuePolicy.PRIORITY));
        }
      }
    }
    core.setQuotas(quotas);
    for (int i = 0; i < units; i++) {
      String team = teams.get(random.nextInt(teams.size()));
      core.upsertUnit(
          new UnitSpec(
              "ns-" + i % 97 + "/job-" + i,
              team,
              team,
              random.nextInt(10),
              NOW.minusSeconds(units - i),
              resources(1 + random.nextInt(16)),
              1 + random.nextInt(3)));
    }
    return core;
  }

  /** {@code cores} CPUs with 4 GiB of memory each. */
  private static ResourceVector resources(long cores) {
    return ResourceVector.of("cpu", cores * 1000, "memory", cores << 32);
  }
}
