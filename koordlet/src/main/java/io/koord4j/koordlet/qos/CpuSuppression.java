package io.koord4j.koordlet.qos;

import io.koord4j.koordlet.cgroup.CgroupFormats;
import java.util.OptionalLong;

/**
 * Koordinator's BE CPU suppression by CFS quota; no I/O.
 *
 * <pre>
 * suppress(BE) = capacity · cpuSuppressThresholdPercent/100 − used(non-BE pods) − max(system used, reserved)
 * system used  = node used − used(all pods)
 * </pre>
 *
 * Raised to {@code capacity · cpuSuppressMinPercent/100} when that is set; the quota written for
 * the BestEffort cgroup is never below {@link #MIN_QUOTA_US} per period.
 */
public final class CpuSuppression {
  private CpuSuppression() {}

  /** Koordinator's floor of the BE quota: 2 ms per 100 ms period. */
  public static final long MIN_QUOTA_US = 2_000;
  /** Changes smaller than 1 % of the node's CPU are not worth a write. */
  static final double BYPASS_DELTA_RATIO = 0.01;
  /** The quota grows by at most 10 % of the node's CPU per round, so BE pods come back slowly. */
  static final double MAX_INCREASE_RATIO = 0.10;

  /** All figures in milli-cores. */
  public record Inputs(
      long capacityMilli,
      long nodeUsedMilli,
      long allPodsUsedMilli,
      long nonBePodsUsedMilli,
      long reservedMilli,
      long thresholdPercent,
      Long minPercent) {}

  /** The CPU left for BE pods, in milli-cores. */
  public static long suppressMilli(Inputs in) {
    long systemUsed = Math.max(0, in.nodeUsedMilli() - in.allPodsUsedMilli());
    long suppress =
        in.capacityMilli() * in.thresholdPercent() / 100 - in.nonBePodsUsedMilli() - Math.max(systemUsed, in.reservedMilli());
    if (in.minPercent() != null) {
      suppress = Math.max(suppress, in.capacityMilli() * in.minPercent() / 100);
    }
    return suppress;
  }

  /** The BE cgroup's quota for that much CPU, per {@link CgroupFormats#DEFAULT_CFS_PERIOD_US}. */
  public static long quotaUs(long suppressMilli) {
    return Math.max(suppressMilli * CgroupFormats.DEFAULT_CFS_PERIOD_US / 1000, MIN_QUOTA_US);
  }

  /**
   * The quota to write now, given the one in place ({@code -1} when none); empty when the change is
   * too small to be worth it. Increases are stepped, decreases take effect at once.
   */
  public static OptionalLong nextQuotaUs(long targetUs, long currentUs, long capacityMilli) {
    double nodeQuota = capacityMilli / 1000.0 * CgroupFormats.DEFAULT_CFS_PERIOD_US;
    if (Math.abs(targetUs - currentUs) < nodeQuota * BYPASS_DELTA_RATIO && targetUs != MIN_QUOTA_US) {
      return OptionalLong.empty();
    }
    long maxIncrease = (long) (nodeQuota * MAX_INCREASE_RATIO);
    if (currentUs != CgroupFormats.UNLIMITED_QUOTA && targetUs - currentUs > maxIncrease) {
      return OptionalLong.of(currentUs + maxIncrease);
    }
    return OptionalLong.of(targetUs);
  }
}
