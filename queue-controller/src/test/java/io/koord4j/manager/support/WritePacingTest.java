package io.koord4j.manager.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class WritePacingTest {
  private Instant now = Instant.parse("2026-12-05T10:00:00Z");
  private final WritePacing pacing = new WritePacing(Duration.ofSeconds(1), new Clock() {
    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  });

  @Test
  void aSecondWriteWithinTheIntervalWaitsForItsEnd() {
    assertThat(pacing.waitBeforeWriting("team-a")).isEmpty();
    now = now.plusMillis(300);
    assertThat(pacing.waitBeforeWriting("team-a")).contains(Duration.ofMillis(700));
    assertThat(pacing.waitBeforeWriting("team-b")).isEmpty();
    now = now.plusMillis(700);
    assertThat(pacing.waitBeforeWriting("team-a")).isEmpty();
  }

}
