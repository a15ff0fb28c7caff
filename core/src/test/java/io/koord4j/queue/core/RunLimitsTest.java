package io.koord4j.queue.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.queue.core.RunVerdict.Cause;
import io.koord4j.queue.core.RunVerdict.Deactivate;
import io.koord4j.queue.core.RunVerdict.Keep;
import io.koord4j.queue.core.RunVerdict.RecordPodsReady;
import io.koord4j.queue.core.RunVerdict.Requeue;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Pods-ready timeout with requeue and limit, spec.active and the maximum execution time. */
class RunLimitsTest {
  private static final Instant ADMITTED = Instant.parse("2026-01-01T00:00:00Z");
  /** Five minutes to be ready; then 60 s doubling up to 600 s; five requeues, the sixth deactivates. */
  private static final WaitForPodsReady SETTINGS =
      new WaitForPodsReady(
          Duration.ofMinutes(5), Duration.ofSeconds(60), Duration.ofSeconds(600), OptionalInt.of(5));

  record Case(String name, Facts facts, long secondsAfterAdmission, RunVerdict expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("pods not ready before the timeout: judged again at the timeout",
            new Facts(), 299, keepUntil(300)),
        new Case("pods not ready at the timeout: first requeue after the base delay",
            new Facts(), 300, new Requeue(1, at(360), "evicted: " + LATE + "; requeue 1 at " + at(360))),
        new Case("third timeout: the base doubled twice",
            new Facts().requeued(2), 400, new Requeue(3, at(640), "evicted: " + LATE + "; requeue 3 at " + at(640))),
        new Case("fifth timeout: the doubled delay stops at the max",
            new Facts().requeued(4), 300, new Requeue(5, at(900), "evicted: " + LATE + "; requeue 5 at " + at(900))),
        new Case("a timeout past the requeue limit deactivates",
            new Facts().requeued(5), 300,
            new Deactivate(Cause.REQUEUE_LIMIT, "deactivated: " + LATE + " after 5 requeues, the limit")),
        new Case("pods ready but not recorded: recorded, even past the timeout",
            new Facts().readyNow(), 1_000, new RecordPodsReady()),
        new Case("pods ready once: no timeout any more, even if a pod is replaced",
            new Facts().recordedReady(), 100_000, new Keep(Optional.empty())),
        new Case("admission checks pending: no pods are expected, no timeout",
            new Facts().checksPending(), 1_000, new Keep(Optional.empty())),
        new Case("an inactive unit is deactivated at once, ready or not",
            new Facts().recordedReady().inactive(), 1,
            new Deactivate(Cause.INACTIVE, "deactivated: spec.active is false")),
        new Case("within its execution time and not ready yet: judged again at the nearer deadline",
            new Facts().limitedTo(3_600), 100, keepUntil(300)),
        new Case("ready and within its execution time: judged again when it ends",
            new Facts().recordedReady().limitedTo(3_600), 100, keepUntil(3_600)),
        new Case("admitted for its whole execution time: deactivated",
            new Facts().recordedReady().limitedTo(3_600), 3_600,
            new Deactivate(Cause.MAXIMUM_EXECUTION_TIME,
                "deactivated: admitted for longer than its maximumExecutionTimeSeconds (3600)")));
  }

  private static final String LATE = "its pods were not all ready within 300 s of admission";

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decides(Case c) {
    assertThat(RunLimits.review(c.facts().unit(), SETTINGS, at(c.secondsAfterAdmission()))).isEqualTo(c.expected());
  }

  @Test
  void aRestartedManagerReadingTheStoredUnitRequeuesItForTheSameTime() {
    RunVerdict before = RunLimits.review(new Facts().requeued(3).unit(), SETTINGS, at(500));
    RunVerdict afterRestart = RunLimits.review(new Facts().requeued(3).unit(), SETTINGS, at(500));

    assertThat(afterRestart).isEqualTo(before).isEqualTo(
        new Requeue(4, at(980), "evicted: " + LATE + "; requeue 4 at " + at(980)));
  }

  @Test
  void theRequeueCountGrowsFromWhatTheUnitStoresSoAReadmittedUnitWaitsLonger() {
    Requeue first = (Requeue) RunLimits.review(new Facts().unit(), SETTINGS, at(300));
    AdmittedUnit readmitted = new Facts().admittedAt(first.requeueAt()).requeued(first.requeues()).unit();
    Instant timedOutAgain = first.requeueAt().plusSeconds(300);
    Requeue second = (Requeue) RunLimits.review(readmitted, SETTINGS, timedOutAgain);

    assertThat(second.requeues()).isEqualTo(2);
    assertThat(Duration.between(timedOutAgain, second.requeueAt())).isEqualTo(Duration.ofSeconds(120));
  }

  @Test
  void withoutATimeoutPodsThatNeverGetReadyKeepTheirAdmission() {
    assertThat(RunLimits.review(new Facts().unit(), SETTINGS.withTimeout(null), at(1_000_000)))
        .isEqualTo(new Keep(Optional.empty()));
  }

  @Test
  void withoutALimitEveryTimeoutIsRequeued() {
    WaitForPodsReady unlimited = new WaitForPodsReady(
        Duration.ofMinutes(5), Duration.ofSeconds(60), Duration.ofSeconds(600), OptionalInt.empty());
    assertThat(RunLimits.review(new Facts().requeued(1_000).unit(), unlimited, at(300)))
        .isEqualTo(new Requeue(1_001, at(900), "evicted: " + LATE + "; requeue 1001 at " + at(900)));
  }

  @Test
  void rejectsSettingsThatMakeNoSense() {
    assertThatThrownBy(() -> SETTINGS.withTimeout(Duration.ZERO)).hasMessageContaining("timeout must be positive");
    assertThatThrownBy(() -> new WaitForPodsReady(null, Duration.ofSeconds(60), Duration.ofSeconds(1), OptionalInt.empty()))
        .hasMessageContaining("0 < base <= max");
    assertThatThrownBy(() -> new WaitForPodsReady(null, Duration.ofSeconds(1), Duration.ofSeconds(1), OptionalInt.of(-1)))
        .hasMessageContaining("limit must be 0 or more");
  }

  private static Keep keepUntil(long seconds) {
    return new Keep(Optional.of(at(seconds)));
  }

  private static Instant at(long secondsAfterAdmission) {
    return ADMITTED.plusSeconds(secondsAfterAdmission);
  }

  /** An admitted unit's facts; each case changes what it is about. */
  private static final class Facts {
    private boolean active = true;
    private Instant admittedAt = ADMITTED;
    private boolean podsExpected = true;
    private boolean podsReadyRecorded;
    private boolean podsReadyNow;
    private int requeues;
    private Duration maximumExecutionTime;

    Facts requeued(int times) {
      requeues = times;
      return this;
    }

    Facts admittedAt(Instant at) {
      admittedAt = at;
      return this;
    }

    Facts readyNow() {
      podsReadyNow = true;
      return this;
    }

    Facts recordedReady() {
      podsReadyRecorded = true;
      return this;
    }

    Facts checksPending() {
      podsExpected = false;
      return this;
    }

    Facts inactive() {
      active = false;
      return this;
    }

    Facts limitedTo(long seconds) {
      maximumExecutionTime = Duration.ofSeconds(seconds);
      return this;
    }

    AdmittedUnit unit() {
      return new AdmittedUnit(
          active, admittedAt, podsExpected, podsReadyRecorded, podsReadyNow, requeues, maximumExecutionTime);
    }
  }
}
