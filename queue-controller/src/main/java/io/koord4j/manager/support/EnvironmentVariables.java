package io.koord4j.manager.support;

import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** Settings read from the process's environment: an unset or blank variable means the default. */
public final class EnvironmentVariables {
  private EnvironmentVariables() {}

  /**
   * The variable's value, trimmed and parsed, or {@code fallback} when it is unset or blank.
   *
   * @param complaint the message for a value {@code parse} rejects, given that value as it was set
   */
  public static <T> T parsed(
      Map<String, String> env,
      String name,
      T fallback,
      Function<String, T> parse,
      UnaryOperator<String> complaint) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return parse.apply(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(complaint.apply(value), e);
    }
  }

  /** As above, complaining that the variable must be {@code rule}, naming it and the value set. */
  public static <T> T parsed(
      Map<String, String> env, String name, T fallback, String rule, Function<String, T> parse) {
    return parsed(env, name, fallback, parse, value -> name + " must be " + rule + ", not \"" + value + "\"");
  }
}
