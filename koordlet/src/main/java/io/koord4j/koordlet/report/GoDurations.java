package io.koord4j.koordlet.report;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go's duration strings, as Kubernetes writes {@code metav1.Duration}: "5m0s", "1h30m0s". */
public final class GoDurations {
  private GoDurations() {}

  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(h|ms|m|s)");

  public static Duration parse(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must be a duration such as \"5m\", not empty");
    }
    Matcher matcher = PART.matcher(value);
    long millis = 0;
    int end = 0;
    while (matcher.find() && matcher.start() == end) {
      double amount = Double.parseDouble(matcher.group(1));
      millis += (long) (amount * switch (matcher.group(2)) {
        case "h" -> 3_600_000;
        case "m" -> 60_000;
        case "s" -> 1_000;
        default -> 1;
      });
      end = matcher.end();
    }
    if (end != value.length() || millis <= 0) {
      throw new IllegalArgumentException(
          field + " must be a positive Go duration such as \"5m\" or \"1h30m\", not \"" + value + "\"");
    }
    return Duration.ofMillis(millis);
  }

  /** Whole seconds in Go's format: "30s", "5m0s", "1h0m0s". */
  public static String format(Duration duration) {
    long seconds = duration.toSeconds();
    long hours = seconds / 3600;
    long minutes = (seconds % 3600) / 60;
    long rest = seconds % 60;
    if (hours > 0) {
      return hours + "h" + minutes + "m" + rest + "s";
    }
    return minutes > 0 ? minutes + "m" + rest + "s" : rest + "s";
  }
}
