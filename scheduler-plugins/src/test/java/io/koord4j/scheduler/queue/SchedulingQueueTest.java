package io.koord4j.scheduler.queue;

import static io.koord4j.scheduler.Fixtures.pod;
import static io.koord4j.scheduler.Fixtures.withPriority;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.scheduler.framework.ClusterEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchedulingQueueTest {

  private final MutableClock clock = new MutableClock();
  private final SchedulingQueue queue =
      new SchedulingQueue(
          clock,
          Duration.ofSeconds(1),
          Duration.ofSeconds(10),
          Duration.ofMinutes(5),
          Map.of(
              "Fit", EnumSet.of(ClusterEvent.NODE_ADDED),
              "Quota", EnumSet.of(ClusterEvent.QUOTA_CHANGED)));

  @Test
  void higherPriorityFirstThenEarlierArrival() {
    queue.add(pod("first", "1", "1Gi"));
    clock.advance(Duration.ofMillis(1));
    queue.add(withPriority(pod("urgent", "1", "1Gi"), 100));
    clock.advance(Duration.ofMillis(1));
    queue.add(pod("second", "1", "1Gi"));

    assertThat(popName()).isEqualTo("urgent");
    assertThat(popName()).isEqualTo("first");
    assertThat(popName()).isEqualTo("second");
    assertThat(queue.poll()).isEmpty();
  }

  @Test
  void backoffDoublesPerAttemptUpToTheMaximum() {
    queue.add(pod("p", "1", "1Gi"));
    QueuedPod attempt = queue.poll().orElseThrow();
    for (long seconds : new long[] {1, 2, 4, 8, 10, 10}) {
      queue.backoff(attempt);
      clock.advance(Duration.ofSeconds(seconds).minusMillis(1));
      assertThat(queue.poll()).as("backing off for %ds", seconds).isEmpty();
      clock.advance(Duration.ofMillis(1));
      attempt = queue.poll().orElseThrow();
    }
    assertThat(attempt.attempts()).isEqualTo(7);
  }

  @Test
  void anUnschedulablePodWaitsForAnEventItsRejectorCaresAbout() {
    queue.add(pod("p", "1", "1Gi"));
    QueuedPod attempt = queue.poll().orElseThrow();
    queue.parkUnschedulable(attempt, Set.of("Fit"));
    clock.advance(Duration.ofMinutes(1));

    queue.onEvent(ClusterEvent.QUOTA_CHANGED);
    assertThat(queue.poll()).as("a quota change does not help a pod that did not fit").isEmpty();
    assertThat(queue.sizes()).containsEntry("unschedulable", 1);

    queue.onEvent(ClusterEvent.NODE_ADDED);
    assertThat(queue.poll()).isPresent();
  }

  @Test
  void aMovedPodStillServesItsBackoff() {
    queue.add(pod("p", "1", "1Gi"));
    queue.parkUnschedulable(queue.poll().orElseThrow(), Set.of("Quota"));
    queue.onEvent(ClusterEvent.QUOTA_CHANGED);
    assertThat(queue.sizes()).containsEntry("backoff", 1);
    assertThat(queue.poll()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(queue.poll()).isPresent();
  }

  @Test
  void anEventDuringTheAttemptSendsThePodToBackoffNotToWaitForAnotherEvent() {
    queue.add(pod("p", "1", "1Gi"));
    QueuedPod attempt = queue.poll().orElseThrow();
    queue.onEvent(ClusterEvent.NODE_ADDED);
    queue.parkUnschedulable(attempt, Set.of("Fit"));
    assertThat(queue.sizes()).containsEntry("backoff", 1).containsEntry("unschedulable", 0);
  }

  @Test
  void aPodDeletedWhileInFlightIsNotPutBack() {
    Pod pod = pod("p", "1", "1Gi");
    queue.add(pod);
    QueuedPod attempt = queue.poll().orElseThrow();
    queue.delete(attempt.uid());
    queue.backoff(attempt);
    clock.advance(Duration.ofMinutes(1));
    assertThat(queue.poll()).isEmpty();
    assertThat(queue.contains(attempt.uid())).isFalse();
  }

  @Test
  void aParkedPodIsRetriedAfterTheLongestWaitEvenWithoutEvents() {
    queue.add(pod("p", "1", "1Gi"));
    queue.parkUnschedulable(queue.poll().orElseThrow(), Set.of("Fit"));
    clock.advance(Duration.ofMinutes(4));
    assertThat(queue.poll()).isEmpty();
    clock.advance(Duration.ofMinutes(1));
    assertThat(queue.poll()).isPresent();
  }

  @Test
  void aSpecChangeMovesAnUnschedulablePod() {
    Pod pod = pod("p", "1", "1Gi");
    queue.add(pod);
    queue.parkUnschedulable(queue.poll().orElseThrow(), Set.of("Fit"));
    clock.advance(Duration.ofSeconds(2));
    queue.update(withPriority(pod, 5));
    assertThat(queue.poll()).isPresent();
  }

  @Test
  void popWaitsUntilAPodArrives() throws Exception {
    Thread producer =
        new Thread(
            () -> {
              sleep(100);
              queue.add(pod("late", "1", "1Gi"));
            });
    producer.start();
    Optional<QueuedPod> popped = queue.pop();
    assertThat(popped).isPresent();
    queue.close();
    assertThat(queue.pop()).isEmpty();
  }

  private String popName() {
    return queue.poll().orElseThrow().pod().getMetadata().getName();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static final class MutableClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
