package io.koord4j.visibility;

import java.time.Duration;
import java.time.Instant;

/** Ages as kubectl shows them: 45s, 12m, 3h, 2d. */
public final class Ages {
  private Ages() {}

  public static String since(String timestamp, Instant now) {
    if (timestamp == null) {
      return "";
    }
    long seconds = Math.max(0, Duration.between(Instant.parse(timestamp), now).toSeconds());
    if (seconds < 120) {
      return seconds + "s";
    }
    if (seconds < 7200) {
      return seconds / 60 + "m";
    }
    if (seconds < 172800) {
      return seconds / 3600 + "h";
    }
    return seconds / 86400 + "d";
  }
}
