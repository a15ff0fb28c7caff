package io.koord4j.quota;

import static io.koord4j.quota.RuntimeQuotaTest.cpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Accounting and admission on quota org with leaves team-a (cpu, memory, gpu) and team-b (cpu). */
class QuotaLedgerTest {

  private static final ResourceVector CPU_MEM_GPU =
      ResourceVector.of("cpu", 100_000, "memory", 64L << 30, "nvidia.com/gpu", 8);

  private QuotaLedger ledger;

  @BeforeEach
  void setUp() {
    ledger =
        new QuotaLedger(
            QuotaTree.of(
                List.of(
                    QuotaSpec.group("org", "", cpu(60_000), CPU_MEM_GPU),
                    QuotaSpec.leaf("team-a", "org", cpu(30_000), CPU_MEM_GPU),
                    QuotaSpec.leaf("team-b", "org", cpu(5_000), cpu(10_000)))));
    ledger.setClusterTotal(
        ResourceVector.of("cpu", 200_000, "memory", 256L << 30, "nvidia.com/gpu", 4));
  }

  @Test
  void usedIsCountedOnTheLeafAndEveryAncestor() {
    ledger.addUsed("team-a", cpu(5_000));
    ledger.addUsed("team-b", cpu(2_000));

    assertThat(ledger.used("team-a").get("cpu")).isEqualTo(5_000);
    assertThat(ledger.used("org").get("cpu")).isEqualTo(7_000);
    assertThat(ledger.used(QuotaTree.ROOT).get("cpu")).isEqualTo(7_000);

    ledger.removeUsed("team-a", cpu(5_000));
    assertThat(ledger.used("org").get("cpu")).isEqualTo(2_000);
  }

  @Test
  void pendingAndUsedBothFeedTheRequest() {
    ledger.addUsed("team-a", cpu(5_000));
    ledger.addPending("team-a", cpu(3_000));

    assertThat(ledger.childRequest("team-a").get("cpu")).isEqualTo(8_000);
    assertThat(ledger.runtime("team-a").get("cpu")).isEqualTo(8_000);
  }

  @Test
  void admittingMovesPendingToUsedWithoutChangingRuntime() {
    ledger.addPending("team-a", cpu(3_000));
    ResourceVector before = ledger.runtime("team-a");

    ledger.admit("team-a", cpu(3_000));

    assertThat(ledger.pending("team-a").get("cpu")).isZero();
    assertThat(ledger.used("org").get("cpu")).isEqualTo(3_000);
    assertThat(ledger.runtime("team-a")).isEqualTo(before);
  }

  @Test
  void outputsListOnlyTheResourcesAQuotaGoverns() {
    assertThat(ledger.runtime("team-b").resourceNames()).containsExactly("cpu");
    assertThat(ledger.runtime("team-a").resourceNames())
        .containsExactly("cpu", "memory", "nvidia.com/gpu");
  }

  @Test
  void admissionFailsAtTheLeafMaxNamingQuotaResourceAndAmounts() {
    ledger.addPending("team-b", cpu(12_000));

    AdmissionResult result = ledger.canAdmit("team-b", cpu(12_000));

    assertThat(result.admissible()).isFalse();
    assertThat(result.quota()).isEqualTo("team-b");
    assertThat(result.resource()).isEqualTo("cpu");
    assertThat(result.requested()).isEqualTo(12_000);
    assertThat(result.available()).isEqualTo(10_000);
    assertThat(result.message())
        .isEqualTo("quota \"team-b\" has 10 of cpu available, 12 requested");
  }

  @Test
  void theClusterTotalBoundsTheRuntimeAllTheWayDown() {
    ResourceVector sixGpus = ResourceVector.of("nvidia.com/gpu", 6);
    ledger.addPending("team-a", sixGpus);

    AdmissionResult result = ledger.canAdmit("team-a", sixGpus);

    assertThat(result.message())
        .isEqualTo("quota \"team-a\" has 4 of nvidia.com/gpu available, 6 requested");
  }

  @Test
  void aShrunkClusterBlocksAtTheParentThatIsFull() {
    ledger.addUsed("team-a", cpu(20_000));
    ledger.setClusterTotal(cpu(21_000));
    ledger.addPending("team-b", cpu(2_000));

    // org gets all 21 cpu; team-b's 2 fit its scaled min (3), but org has only 1 left.
    assertThat(ledger.runtime("org").get("cpu")).isEqualTo(21_000);
    assertThat(ledger.runtime("team-b").get("cpu")).isEqualTo(2_000);
    assertThat(ledger.canAdmit("team-b", cpu(2_000)))
        .isEqualTo(new AdmissionResult(false, "org", "cpu", 2_000, 1_000));
  }

  @Test
  void admissionFailsWhenUsedLeavesTooLittleOfTheRuntime() {
    ResourceVector memory = ResourceVector.of("memory", 48L << 30);
    ledger.addUsed("team-a", memory);
    ResourceVector more = ResourceVector.of("memory", 24L << 30);
    ledger.addPending("team-a", more);

    AdmissionResult result = ledger.canAdmit("team-a", more);

    // runtime = max 64Gi (request 72Gi capped), used 48Gi: 16Gi left.
    assertThat(result.message())
        .isEqualTo("quota \"team-a\" has 16Gi of memory available, 24Gi requested");
  }

  @Test
  void admissionIgnoresResourcesTheLeafDoesNotGovern() {
    ResourceVector memory = ResourceVector.of("memory", 1L << 30);
    ledger.addPending("team-b", memory);

    assertThat(ledger.canAdmit("team-b", memory).admissible()).isTrue();
  }

  @Test
  void parentQuotasCannotHoldUnits() {
    assertThatThrownBy(() -> ledger.addPending("org", cpu(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("quota \"org\" is a parent quota; only leaf quotas hold units");
    assertThatThrownBy(() -> ledger.canAdmit("nope", cpu(1)))
        .hasMessage("unknown quota \"nope\"");
  }

  @Test
  void removingMoreThanWasRecordedIsRefused() {
    ledger.addUsed("team-a", cpu(1_000));

    assertThatThrownBy(() -> ledger.removeUsed("team-a", cpu(2_000)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "cannot remove 2000 of cpu from the used amount of quota \"team-a\": "
                + "only 1000 recorded");
    assertThat(ledger.used("org").get("cpu")).isEqualTo(1_000);
  }

  @Test
  void borrowedIsUsedAboveMin() {
    ledger.addUsed("team-a", cpu(45_000));

    assertThat(ledger.borrowed("team-a").get("cpu")).isEqualTo(15_000);
    assertThat(ledger.borrowed("team-b").get("cpu")).isZero();
  }
}
