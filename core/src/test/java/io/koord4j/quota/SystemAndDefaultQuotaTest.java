package io.koord4j.quota;

import static io.koord4j.quota.RuntimeQuotaTest.cpu;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The system and default quotas as Koordinator treats them: their runtime is their max, and what
 * they use is taken off what the root shares among the other quotas.
 */
class SystemAndDefaultQuotaTest {
  private static final long HUGE = Long.MAX_VALUE / 5;

  private static QuotaLedger ledger() {
    QuotaLedger ledger =
        new QuotaLedger(
            QuotaTree.of(
                List.of(
                    QuotaSpec.leaf(QuotaTree.SYSTEM, "", cpu(0), cpu(HUGE)),
                    QuotaSpec.leaf(QuotaTree.DEFAULT, "", cpu(0), cpu(HUGE)),
                    QuotaSpec.leaf("team", "", cpu(0), cpu(100_000)))));
    ledger.setClusterTotal(cpu(10_000));
    return ledger;
  }

  @Test
  void theDefaultQuotaHasItsMaxAsRuntimeAndTakesNoShareFromOthers() {
    QuotaLedger ledger = ledger();
    ledger.addPending("team", cpu(10_000));
    ledger.addPending(QuotaTree.DEFAULT, cpu(1_000));

    assertThat(ledger.runtime(QuotaTree.DEFAULT).get("cpu")).isEqualTo(HUGE);
    assertThat(ledger.runtime(QuotaTree.SYSTEM).get("cpu")).isEqualTo(HUGE);
    assertThat(ledger.runtime("team").get("cpu")).isEqualTo(10_000);
  }

  @Test
  void whatTheSystemAndDefaultQuotasUseIsNotSharedAmongTheOthers() {
    QuotaLedger ledger = ledger();
    ledger.addUsed(QuotaTree.DEFAULT, cpu(3_000));
    ledger.addUsed(QuotaTree.SYSTEM, cpu(1_000));
    ledger.addPending("team", cpu(10_000));

    assertThat(ledger.runtime("team").get("cpu")).isEqualTo(6_000);
    assertThat(ledger.canAdmit("team", cpu(6_000)).admissible()).isTrue();
    assertThat(ledger.canAdmit("team", cpu(6_001)).admissible()).isFalse();
  }

  @Test
  void aQuotaNamedLikeTheDefaultBelowAnotherParentIsAnOrdinaryQuota() {
    QuotaLedger ledger =
        new QuotaLedger(
            QuotaTree.of(
                List.of(
                    QuotaSpec.group("org", "", cpu(0), cpu(HUGE)),
                    QuotaSpec.leaf(QuotaTree.DEFAULT, "org", cpu(0), cpu(HUGE)))));
    ledger.setClusterTotal(cpu(10_000));
    ledger.addPending(QuotaTree.DEFAULT, cpu(20_000));

    assertThat(ledger.runtime(QuotaTree.DEFAULT).get("cpu")).isEqualTo(10_000);
  }
}
