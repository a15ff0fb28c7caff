package io.koord4j.webhook.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RotationTimingTest {
  private static final Duration REFRESH = Duration.ofSeconds(1);
  private static final Duration SETTLE = Duration.ofSeconds(4);

  @Test
  void marginsAreAThirdOfTheValidity() {
    RotationTiming timing =
        new RotationTiming(Duration.ofSeconds(60), Duration.ofSeconds(30), REFRESH, SETTLE);

    assertThat(timing.caRenewBefore()).isEqualTo(Duration.ofSeconds(20));
    assertThat(timing.servingRenewBefore()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void servingMarginMustExceedTheHandover() {
    assertThatThrownBy(
            () -> new RotationTiming(Duration.ofHours(1), Duration.ofSeconds(18), REFRESH, SETTLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("servingValidity PT18S is too short")
        .hasMessageContaining("must exceed settleDelay + 2 x refreshPeriod (PT6S)");
  }

  @Test
  void caMarginMustCoverTwoHandovers() {
    assertThatThrownBy(
            () -> new RotationTiming(Duration.ofSeconds(36), Duration.ofSeconds(30), REFRESH, SETTLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("caValidity PT36S is too short")
        .hasMessageContaining("(PT12S)");
  }

  @Test
  void durationsMustBePositive() {
    assertThatThrownBy(
            () -> new RotationTiming(Duration.ofDays(1), Duration.ofHours(1), Duration.ZERO, SETTLE))
        .hasMessage("refreshPeriod must be positive, got PT0S");
  }
}
