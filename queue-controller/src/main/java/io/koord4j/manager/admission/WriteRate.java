package io.koord4j.manager.admission;

import io.koord4j.manager.support.EnvironmentVariables;
import java.util.Map;

/**
 * How fast the {@link StatusWriter} may write what waiting units say, from the manager's
 * environment. Each status write and each event takes one write.
 *
 * @param perSecond writes per second, on average ({@code KOORD4J_STATUS_WRITES_PER_SECOND},
 *     default 50)
 * @param burst writes that may go at once after a quiet time ({@code KOORD4J_STATUS_WRITE_BURST},
 *     default 100)
 */
public record WriteRate(double perSecond, int burst) {
  static final String PER_SECOND = "KOORD4J_STATUS_WRITES_PER_SECOND";
  static final String BURST = "KOORD4J_STATUS_WRITE_BURST";

  public static final WriteRate DEFAULTS = new WriteRate(50, 100);

  public WriteRate {
    if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
      throw new IllegalArgumentException(PER_SECOND + " must be a number above 0, not " + perSecond);
    }
    if (burst < 1) {
      throw new IllegalArgumentException(BURST + " must be a whole number of at least 1, not " + burst);
    }
  }

  public static WriteRate from(Map<String, String> env) {
    return new WriteRate(
        EnvironmentVariables.parsed(env, PER_SECOND, DEFAULTS.perSecond, "a number above 0", Double::parseDouble),
        EnvironmentVariables.parsed(env, BURST, DEFAULTS.burst, "a whole number of at least 1", Integer::parseInt));
  }
}
