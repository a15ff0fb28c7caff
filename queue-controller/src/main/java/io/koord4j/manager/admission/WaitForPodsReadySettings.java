package io.koord4j.manager.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.koord4j.manager.support.EnvironmentVariables;
import io.koord4j.queue.core.WaitForPodsReady;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The manager's {@link WaitForPodsReady} from its environment, and a queue's own from its
 * {@code koord-queue/queue-args}. Durations in the environment are seconds, or a number with
 * {@code s}, {@code m} or {@code h}.
 *
 * <ul>
 *   <li>{@code KOORD4J_WAIT_FOR_PODS_READY_TIMEOUT} (default 5m; 0 turns the check off), queue arg
 *       {@code waitForPodsReadyTimeoutSeconds}
 *   <li>{@code KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_BASE} (default 60s), queue arg {@code
 *       requeuingBackoffBaseSeconds}
 *   <li>{@code KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_MAX} (default 1h), queue arg {@code
 *       requeuingBackoffMaxSeconds}
 *   <li>{@code KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_LIMIT_COUNT} (default none: never
 *       deactivated), queue arg {@code requeuingBackoffLimitCount}
 * </ul>
 */
public final class WaitForPodsReadySettings {
  private WaitForPodsReadySettings() {}

  static final String TIMEOUT = "KOORD4J_WAIT_FOR_PODS_READY_TIMEOUT";
  static final String BACKOFF_BASE = "KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_BASE";
  static final String BACKOFF_MAX = "KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_MAX";
  static final String BACKOFF_LIMIT_COUNT = "KOORD4J_WAIT_FOR_PODS_READY_BACKOFF_LIMIT_COUNT";

  private static final String DURATION = "a duration such as 90, 90s, 5m or 1h";

  public static WaitForPodsReady from(Map<String, String> env) {
    WaitForPodsReady defaults = WaitForPodsReady.DEFAULTS;
    Duration timeout = duration(env, TIMEOUT, defaults.timeout());
    Duration base = duration(env, BACKOFF_BASE, defaults.backoffBase());
    Duration max = duration(env, BACKOFF_MAX, defaults.backoffMax());
    OptionalInt limit = EnvironmentVariables.parsed(
        env, BACKOFF_LIMIT_COUNT, defaults.backoffLimitCount(), "a whole number",
        value -> OptionalInt.of(Integer.parseInt(value)));
    try {
      return new WaitForPodsReady(offWhenZero(timeout), base, max, limit);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          TIMEOUT + ", " + BACKOFF_BASE + ", " + BACKOFF_MAX + " or " + BACKOFF_LIMIT_COUNT + ": " + e.getMessage(), e);
    }
  }

  /**
   * The manager's settings with those a queue's args give instead; args that cannot be used leave
   * the manager's.
   */
  static WaitForPodsReady forQueue(JsonNode queueArgs, WaitForPodsReady manager) {
    try {
      return new WaitForPodsReady(
          offWhenZero(seconds(queueArgs, "waitForPodsReadyTimeoutSeconds", manager.timeout())),
          seconds(queueArgs, "requeuingBackoffBaseSeconds", manager.backoffBase()),
          seconds(queueArgs, "requeuingBackoffMaxSeconds", manager.backoffMax()),
          queueArgs.path("requeuingBackoffLimitCount").isInt()
              ? OptionalInt.of(queueArgs.path("requeuingBackoffLimitCount").asInt())
              : manager.backoffLimitCount());
    } catch (IllegalArgumentException e) {
      return manager;
    }
  }

  private static Duration seconds(JsonNode args, String field, Duration fallback) {
    JsonNode value = args.path(field);
    return value.canConvertToLong() ? Duration.ofSeconds(value.asLong()) : fallback;
  }

  private static Duration offWhenZero(Duration timeout) {
    return timeout == null || timeout.isZero() ? null : timeout;
  }

  private static Duration duration(String value) {
    char unit = value.charAt(value.length() - 1);
    String number = Character.isDigit(unit) ? value : value.substring(0, value.length() - 1);
    Duration one = switch (unit) {
      case 'h' -> Duration.ofHours(1);
      case 'm' -> Duration.ofMinutes(1);
      case 's' -> Duration.ofSeconds(1);
      default -> {
        if (!Character.isDigit(unit)) {
          throw new NumberFormatException(value);
        }
        yield Duration.ofSeconds(1);
      }
    };
    return one.multipliedBy(Long.parseLong(number));
  }

  private static Duration duration(Map<String, String> env, String name, Duration fallback) {
    return EnvironmentVariables.parsed(env, name, fallback, DURATION, WaitForPodsReadySettings::duration);
  }
}
