package io.koord4j.koordlet.qos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpuSuppressionTest {
  @Test
  void beGetsTheThresholdShareMinusNonBeAndSystemUse() {
    // 16 cores: 65 % = 10400m; LS pods use 4000m; node 7000m of which pods 6000m: system 1000m > reserved 500m
    long suppress = CpuSuppression.suppressMilli(new CpuSuppression.Inputs(16_000, 7_000, 6_000, 4_000, 500, 65, null));
    assertThat(suppress).isEqualTo(10_400 - 4_000 - 1_000);
    assertThat(CpuSuppression.quotaUs(suppress)).isEqualTo(540_000);
  }

  @Test
  void reservedCountsWhenItExceedsSystemUse() {
    long suppress = CpuSuppression.suppressMilli(new CpuSuppression.Inputs(16_000, 5_000, 5_000, 4_000, 2_000, 65, null));
    assertThat(suppress).isEqualTo(10_400 - 4_000 - 2_000);
  }

  @Test
  void neverBelowTheFloors() {
    long starved = CpuSuppression.suppressMilli(new CpuSuppression.Inputs(4_000, 4_000, 3_900, 3_900, 0, 65, null));
    assertThat(starved).isNegative();
    assertThat(CpuSuppression.quotaUs(starved)).isEqualTo(CpuSuppression.MIN_QUOTA_US);
    long withMinPercent = CpuSuppression.suppressMilli(new CpuSuppression.Inputs(4_000, 4_000, 3_900, 3_900, 0, 65, 10L));
    assertThat(withMinPercent).isEqualTo(400);
  }

  @Test
  void smallChangesAreSkippedAndIncreasesStepped() {
    // 8 cores: 1 % of the node is 8000 us, 10 % is 80000 us
    assertThat(CpuSuppression.nextQuotaUs(300_000, 295_000, 8_000)).isEmpty();
    assertThat(CpuSuppression.nextQuotaUs(200_000, 300_000, 8_000)).hasValue(200_000);
    assertThat(CpuSuppression.nextQuotaUs(500_000, 300_000, 8_000)).hasValue(380_000);
    assertThat(CpuSuppression.nextQuotaUs(500_000, -1, 8_000)).hasValue(500_000);
    assertThat(CpuSuppression.nextQuotaUs(CpuSuppression.MIN_QUOTA_US, 3_000, 8_000)).hasValue(CpuSuppression.MIN_QUOTA_US);
  }
}
