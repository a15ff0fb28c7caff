package io.koord4j.queue.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.koord4j.quota.AdmissionResult;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class WaitReasonTest {
  private static final Instant START = Instant.parse("2026-12-02T10:00:00Z");
  private static final Reservation RESERVATION = new Reservation("team-a/big", START);

  /** One reason of every kind, with the sentence a user reads for it. */
  private static final Map<WaitReason, String> WORDING = Map.ofEntries(
      Map.entry(new WaitReason.QuotaShortage(new AdmissionResult(false, "nlp", "cpu", 1500, 0)),
          new AdmissionResult(false, "nlp", "cpu", 1500, 0).message()),
      Map.entry(new WaitReason.Unplaceable("taints"), "the gang does not fit even on empty nodes: taints"),
      Map.entry(new WaitReason.BlockedBehind("team-a/first"), "blocked behind team-a/first (Block policy)"),
      Map.entry(new WaitReason.BehindReservation(RESERVATION),
          "waiting behind team-a/big, reserved to start by 2026-12-02T10:00:00Z"
              + " (backfill: only units expected to end by then, or leaving it room, go first)"),
      Map.entry(new WaitReason.BehindFirstTier("team-a/urgent", 100),
          "waiting behind team-a/urgent (Intelligent policy: units of priority 100 or more go first)"),
      Map.entry(new WaitReason.InBackoff(START, 2), "in backoff until 2026-12-02T10:00:00Z after 2 requeues"),
      Map.entry(new WaitReason.AwaitingPodsRunning("team-a/first"), "queue waits for pods of team-a/first to run"),
      Map.entry(new WaitReason.AwaitingPreemption(List.of("team-b/x", "team-b/y")),
          "waiting for preempted team-b/x, team-b/y to release quota"),
      Map.entry(new WaitReason.UnknownQueue("research"), "queue \"research\" does not exist"),
      Map.entry(new WaitReason.UnusableQuota("root"), "quota \"root\" does not exist or is a parent quota"),
      Map.entry(new WaitReason.QuotaNotBound("quota \"team-b\" is not bound to namespace \"team-a\""),
          "quota \"team-b\" is not bound to namespace \"team-a\""));

  @Test
  void everyKindOfReasonHasItsSentence() {
    assertThat(WORDING.keySet().stream().map(Object::getClass).collect(Collectors.toSet()))
        .as("a sample of every kind of reason")
        .containsExactlyInAnyOrderElementsOf(Arrays.asList(WaitReason.class.getPermittedSubclasses()));
    WORDING.forEach((reason, sentence) -> assertThat(reason.message()).as(reason.toString()).isEqualTo(sentence));
  }

  @Test
  void aReservedShortageSaysWhenItStarts() {
    AdmissionResult shortage = new AdmissionResult(false, "nlp", "cpu", 1500, 0);

    assertThat(new WaitReason.QuotaShortage(shortage, RESERVATION).message())
        .isEqualTo(shortage.message() + "; reserved to start by 2026-12-02T10:00:00Z (backfill)");
  }

  @Test
  void oneRequeueIsSingular() {
    assertThat(new WaitReason.InBackoff(START, 1).message()).isEqualTo("in backoff until 2026-12-02T10:00:00Z after 1 requeue");
  }
}
