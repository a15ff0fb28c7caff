package io.koord4j.manager.dashboard;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.koord4j.probes.ProbeServer;
import java.util.List;
import java.util.Optional;

/**
 * One page of a list the dashboard serves, so that no request writes out the whole cluster: up to
 * {@code ?limit=} items ({@link #DEFAULT_LIMIT}, at most {@link #MAX_LIMIT}) from where {@code
 * ?continue=} says, as the previous page returned it. The token is the offset of the next item:
 * the lists are rebuilt every two seconds, and a page read across two builds may repeat or skip
 * an item whatever the token names.
 *
 * @param readAt when the cluster was read
 * @param continueToken what to pass as {@code continue} for the next page; null, and so absent from
 *     the JSON, on the last one
 * @param total how many items the whole list has
 */
public record ListPage<T>(
    String readAt, List<T> items, @JsonProperty("continue") String continueToken, int total) {
  static final int DEFAULT_LIMIT = 50;
  /** Each queue carries its first waiting jobs, so a page of queues is the heaviest. */
  static final int MAX_LIMIT = 200;

  /**
   * The page of {@code all} the request's {@code limit} and {@code continue} ask for; a limit above
   * {@link #MAX_LIMIT} is lowered to it.
   *
   * @throws IllegalArgumentException naming the parameter that is not a number in its range
   */
  static <T> ListPage<T> of(String readAt, List<T> all, ProbeServer.Request request) {
    int limit = Math.min(number(request.parameter("limit"), "limit", DEFAULT_LIMIT, 1), MAX_LIMIT);
    int from = Math.min(number(request.parameter("continue"), "continue", 0, 0), all.size());
    int to = Math.min(all.size(), from + limit);
    return new ListPage<>(readAt, all.subList(from, to), to < all.size() ? Integer.toString(to) : null, all.size());
  }

  private static int number(Optional<String> value, String parameter, int fallback, int min) {
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      int number = Integer.parseInt(value.get());
      if (number >= min) {
        return number;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new IllegalArgumentException(
        parameter + " must be a whole number of at least " + min + ", not \"" + value.get() + "\"");
  }
}
