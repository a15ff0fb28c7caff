package io.koord4j.webhook.tls;

import java.time.Duration;

/**
 * How long certificates live, how fast a change spreads, and the renewal margins that follow. A
 * certificate is renewed when a third of its validity is left.
 *
 * <p>A change takes up to a handover to take effect everywhere: one refresh period
 * until some replica notices it is due, another until every replica has read the new Secret, and
 * the settle delay until the API server has seen a new trust bundle. The margins must cover that:
 * a serving certificate must outlive the rollout of its successor, and an old CA must outlive
 * both the rollout of its successor's bundle and that of the first serving certificate it signs.
 *
 * @param caValidity how long a CA is valid
 * @param servingValidity how long a serving certificate is valid
 * @param refreshPeriod how often each replica reads the Secret
 * @param settleDelay how long the API server may take to use a newly written caBundle
 */
public record RotationTiming(
    Duration caValidity, Duration servingValidity, Duration refreshPeriod, Duration settleDelay) {

  public RotationTiming {
    requirePositive("caValidity", caValidity);
    requirePositive("servingValidity", servingValidity);
    requirePositive("refreshPeriod", refreshPeriod);
    requirePositive("settleDelay", settleDelay);
    Duration handover = handover(settleDelay, refreshPeriod);
    if (servingValidity.dividedBy(3).compareTo(handover) <= 0) {
      throw new IllegalArgumentException(
          "servingValidity " + servingValidity + " is too short: its renewal margin (a third, "
              + servingValidity.dividedBy(3) + ") must exceed settleDelay + 2 x refreshPeriod ("
              + handover + ")");
    }
    if (caValidity.dividedBy(3).compareTo(handover.multipliedBy(2)) <= 0) {
      throw new IllegalArgumentException(
          "caValidity " + caValidity + " is too short: its renewal margin (a third, "
              + caValidity.dividedBy(3) + ") must exceed 2 x (settleDelay + 2 x refreshPeriod) ("
              + handover.multipliedBy(2) + ")");
    }
  }

  /** A CA is replaced when less than this is left. */
  public Duration caRenewBefore() {
    return caValidity.dividedBy(3);
  }

  /** A serving certificate is replaced when less than this is left. */
  public Duration servingRenewBefore() {
    return servingValidity.dividedBy(3);
  }

  /** The longest a Secret change takes to reach every replica and the API server. */
  private static Duration handover(Duration settleDelay, Duration refreshPeriod) {
    return settleDelay.plus(refreshPeriod.multipliedBy(2));
  }

  private static void requirePositive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }
}
