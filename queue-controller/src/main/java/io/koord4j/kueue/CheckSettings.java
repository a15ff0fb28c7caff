package io.koord4j.kueue;

import io.koord4j.manager.support.EnvironmentVariables;
import java.time.Duration;
import java.util.Map;

/**
 * How long the gang-feasibility check waits, from the controller's environment: the defaults of
 * every check, which its GangFeasibilityParameters may override (see {@link CheckConfig}).
 *
 * @param waitBeforeRetry how long a workload may stay Pending before the check answers Retry, so
 *     that Kueue releases its quota for others ({@code KOORD4J_KUEUE_RETRY_AFTER_SECONDS}, default
 *     300)
 * @param requeueAfterSeconds how long Kueue waits before reserving quota again after a Retry
 *     ({@code KOORD4J_KUEUE_REQUEUE_AFTER_SECONDS}, default 60)
 */
public record CheckSettings(Duration waitBeforeRetry, int requeueAfterSeconds) {
  public static final CheckSettings DEFAULTS = new CheckSettings(Duration.ofMinutes(5), 60);

  public CheckSettings {
    if (waitBeforeRetry.isNegative() || requeueAfterSeconds < 0) {
      throw new IllegalArgumentException(
          "wait before Retry and requeue delay must not be negative: " + waitBeforeRetry + ", "
              + requeueAfterSeconds);
    }
  }

  public static CheckSettings from(Map<String, String> env) {
    return new CheckSettings(
        Duration.ofSeconds(
            seconds(env, "KOORD4J_KUEUE_RETRY_AFTER_SECONDS", DEFAULTS.waitBeforeRetry.toSeconds())),
        (int) seconds(env, "KOORD4J_KUEUE_REQUEUE_AFTER_SECONDS", DEFAULTS.requeueAfterSeconds));
  }

  private static long seconds(Map<String, String> env, String name, long fallback) {
    return EnvironmentVariables.parsed(env, name, fallback, Long::parseLong,
        value -> name + ": \"" + value + "\" is not a whole number of seconds");
  }
}
