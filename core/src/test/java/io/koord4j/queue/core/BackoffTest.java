package io.koord4j.queue.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final SplittableRandom random = new SplittableRandom(7);

  private void assertWithinTenPercentOf(int attempt, Duration expected) {
    long millis = expected.toMillis();
    for (int draw = 0; draw < 1_000; draw++) {
      assertThat(Backoff.DEFAULT.delay(attempt, random).toMillis())
          .isBetween(Math.round(millis * 0.9), Math.round(millis * 1.1));
    }
  }

  @Test
  void doublesFromTenSecondsWithTenPercentJitter() {
    assertWithinTenPercentOf(1, Duration.ofSeconds(10));
    assertWithinTenPercentOf(2, Duration.ofSeconds(20));
    assertWithinTenPercentOf(4, Duration.ofSeconds(80));
  }

  @Test
  void stopsAtFifteenMinutesHoweverManyAttempts() {
    assertWithinTenPercentOf(7, Duration.ofSeconds(640));
    assertWithinTenPercentOf(8, Duration.ofMinutes(15)); // 1280 s, capped
    assertWithinTenPercentOf(10_000, Duration.ofMinutes(15));
  }

  @Test
  void jitterSpreadsUnitsRequeuedTogether() {
    assertThat(
            random
                .ints(50)
                .mapToObj(i -> Backoff.DEFAULT.delay(1, random))
                .distinct()
                .count())
        .isGreaterThan(40);
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(10), Duration.ofSeconds(1)))
        .hasMessageContaining("initial <= max");
    assertThatThrownBy(() -> Backoff.DEFAULT.delay(0, random)).hasMessageContaining("attempt");
  }
}
