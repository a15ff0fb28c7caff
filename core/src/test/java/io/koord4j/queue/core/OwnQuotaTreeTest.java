package io.koord4j.queue.core;

import static io.koord4j.queue.core.Fixtures.at;
import static io.koord4j.queue.core.Fixtures.cpu;
import static io.koord4j.queue.core.Fixtures.group;
import static io.koord4j.queue.core.Fixtures.leaf;
import static io.koord4j.queue.core.Fixtures.newCore;
import static io.koord4j.queue.core.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Admission in a cluster of 24 CPUs where an ElasticQuotaProfile's tree owns 8 of them: each tree
 * admits within its own total, however idle the other is.
 */
class OwnQuotaTreeTest {
  private static final long UNLIMITED = Long.MAX_VALUE / 5_000;

  private static AdmissionCore core() {
    AdmissionCore core = newCore();
    core.setClusterTotal(cpu(24));
    core.upsertQuota(group("pool-root", "", 8, UNLIMITED).withTreeTotal(cpu(8)));
    core.upsertQuota(leaf("pool-team", "pool-root", 0, UNLIMITED));
    core.upsertQuota(leaf("other-team", "", 0, UNLIMITED));
    core.upsertQueue(QueueConfig.of("q-pool"));
    core.upsertQueue(QueueConfig.of("q-other"));
    return core;
  }

  @Test
  void aUnitOfTheProfilesTreeIsAdmittedOnlyWithinItsTreesTotal() {
    AdmissionCore core = core();
    core.upsertUnit(unit("ns/first", "q-pool", "pool-team", 0, 0, 6));
    core.upsertUnit(unit("ns/second", "q-pool", "pool-team", 0, 1, 6));

    AdmissionPass pass = core.pass(at(10));

    assertThat(pass.admitted()).containsExactly("ns/first");
    assertThat(pass.waiting().get("ns/second").reason()).isInstanceOf(WaitReason.QuotaShortage.class);
    assertThat(core.runtime("pool-root")).isEqualTo(cpu(8));
  }

  @Test
  void aUnitOfTheDefaultTreeDoesNotCountTheProfilesNodes() {
    AdmissionCore core = core();
    core.upsertUnit(unit("ns/fits", "q-other", "other-team", 0, 0, 16));
    core.upsertUnit(unit("ns/beyond", "q-other", "other-team", 0, 1, 1));

    AdmissionPass pass = core.pass(at(10));

    assertThat(pass.admitted()).containsExactly("ns/fits");
    assertThat(pass.waiting().get("ns/beyond").reason()).isInstanceOf(WaitReason.QuotaShortage.class);
  }
}
