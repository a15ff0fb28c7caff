package io.koord4j.manager.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.manager.support.Json;
import io.koord4j.manager.support.QueueUnitWrites;
import io.koord4j.queue.core.WaitForPodsReady;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The status writer on a clock of the test's own: nothing here waits for real time but the one
 * test of its threads.
 */
class StatusWriterTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final AtomicLong nanos = new AtomicLong();
  private boolean leading = true;
  private final Writes writes = new Writes();
  private final Counts counts = new Counts();
  private final List<Set<String>> notWritten = new ArrayList<>();
  private int roomAgain;

  @Test
  void onlyTheLatestQueuedStatusOfAUnitIsWritten() {
    StatusWriter writer = writer(WriteRate.DEFAULTS);
    writer.status(unit("a", 1), saying("quota short by 3"));
    writer.status(unit("b", 1), saying("blocked"));
    writer.status(unit("a", 1), saying("quota short by 2"));

    writer.writeDue();

    assertThat(writes.log).containsExactly("status team/a: quota short by 2", "status team/b: blocked");
    assertThat(counts.coalesced).isEqualTo(1);
    assertThat(counts.stored).isEqualTo(2);
    assertThat(counts.backlog).isZero();
  }

  @Test
  void aUnitsWritesAreNeverReorderedAndItsEventsAreAllSentAfterItsStatus() {
    StatusWriter writer = writer(WriteRate.DEFAULTS);
    writer.status(unit("a", 1), saying("first"));
    writer.event(unit("a", 1), "Normal", "Pending", "why one", T0);
    writer.event(unit("a", 1), "Normal", "Pending", "why two", T0);
    // A newer status of a, queued while its first write is under way, is written after it.
    writes.whileStoring = stored -> writer.status(stored, saying("second"));

    writer.writeDue();

    assertThat(writes.log).containsExactly(
        "status team/a: first", "event team/a: why one", "event team/a: why two", "status team/a: second");
    assertThat(counts.coalesced).isZero();
  }

  @Test
  void unitsAreWrittenSideBySideButTwoWritesOfOneUnitNeverOverlap() throws InterruptedException {
    StatusWriter writer = writer(WriteRate.DEFAULTS);
    CountDownLatch firstUnderWay = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    writes.whileStoring = stored -> {
      firstUnderWay.countDown();
      awaitQuietly(answer);
    };
    writer.start();
    try {
      writer.status(unit("a", 1), saying("first"));
      assertThat(firstUnderWay.await(10, TimeUnit.SECONDS)).isTrue();
      writer.status(unit("a", 1), saying("second"));
      writer.status(unit("b", 1), saying("blocked"));

      await().atMost(Duration.ofSeconds(10)).until(() -> writes.log.contains("status team/b: blocked"));
      assertThat(writes.log).as("a's second write waits for its first").doesNotContain("status team/a: second");
      answer.countDown();
      await().atMost(Duration.ofSeconds(10)).until(() -> writes.log.contains("status team/a: second"));
      assertThat(writes.log).containsSubsequence("status team/a: first", "status team/a: second");
    } finally {
      answer.countDown();
      writer.close();
    }
  }

  @Test
  void writesFollowTheRateAndNoMoreThanTheBurstGoesAtOnce() {
    StatusWriter writer = writer(new WriteRate(2, 3));
    for (int i = 0; i < 10; i++) {
      writer.status(unit("u" + i, 1), saying("waits"));
    }

    long wait = writer.writeDue();
    assertThat(writes.log).as("the burst").hasSize(3);
    assertThat(wait).isCloseTo(Duration.ofMillis(500).toNanos(), within(1L));

    advance(Duration.ofMillis(499));
    assertThat(writer.writeDue()).isCloseTo(Duration.ofMillis(1).toNanos(), within(1L));
    assertThat(writes.log).hasSize(3);

    advance(Duration.ofMillis(2));
    writer.writeDue();
    assertThat(writes.log).hasSize(4);

    advance(Duration.ofSeconds(60));
    writer.writeDue();
    assertThat(writes.log).as("a quiet minute earns the burst, not 120 writes").hasSize(7);
  }

  @Test
  void aStatusAndItsEventsCostOneWriteEach() {
    StatusWriter writer = writer(new WriteRate(1, 2));
    writer.status(unit("a", 1), saying("first"));
    writer.event(unit("a", 1), "Normal", "Pending", "why", T0);
    writer.event(unit("a", 1), "Normal", "Pending", "why again", T0);
    writer.status(unit("b", 1), saying("second"));

    long wait = writer.writeDue();

    assertThat(writes.log).as("a's three writes go together").hasSize(3);
    assertThat(wait).as("they spent a token more than the bucket held")
        .isCloseTo(Duration.ofSeconds(2).toNanos(), within(1L));
  }

  @Test
  void aReplicaThatMayNoLongerLeadDropsTheQueueAndWritesNothing() {
    StatusWriter writer = writer(WriteRate.DEFAULTS);
    writer.status(unit("a", 1), saying("waits"));
    writer.event(unit("b", 1), "Warning", "Preempted", "by c", T0);
    leading = false;

    assertThat(writer.writeDue()).isZero();

    assertThat(writes.log).isEmpty();
    assertThat(notWritten).containsExactly(Set.of("team/a", "team/b"));
    assertThat(counts.dropped).isEqualTo(2);
    assertThat(counts.backlog).isZero();

    leading = true;
    writer.writeDue();
    assertThat(writes.log).as("dropped, not postponed").isEmpty();
    writer.status(unit("c", 1), saying("waits"));
    writer.writeDue();
    assertThat(writes.log).containsExactly("status team/c: waits");
  }

  @Test
  void aRefusedWriteIsReportedSoThatTheUnitIsExplainedAgain() {
    StatusWriter writer = writer(WriteRate.DEFAULTS);
    writes.refused.add("team/a");
    writer.status(unit("a", 1), saying("waits"));
    writer.status(unit("b", 1), saying("waits"));

    writer.writeDue();

    assertThat(notWritten).containsExactly(Set.of("team/a"));
    assertThat(writes.log).containsExactly("status team/b: waits");
    assertThat(counts.failed).isEqualTo(1);
    assertThat(counts.stored).isEqualTo(1);
  }

  @Test
  void aStatusTheUnitAlreadyHasIsNotWritten() {
    StatusWriter writer = writer(WriteRate.DEFAULTS);
    QueueUnit unit = unit("a", 1);
    unit.setStatus(saying("waits"));

    writer.status(unit, saying("waits"));
    writer.writeDue();

    assertThat(writes.log).isEmpty();
  }

  @Test
  void aDecisionCancelsTheQueuedStatusButNotTheEvents() {
    StatusWriter writer = writer(WriteRate.DEFAULTS);
    writer.status(unit("a", 1), saying("waits"));
    writer.event(unit("a", 1), "Normal", "Pending", "why", T0);
    writer.status(unit("b", 1), saying("waits"));

    writer.cancel("team/a");
    writer.cancel("team/b");
    writer.writeDue();

    assertThat(writes.log).containsExactly("event team/a: why");
    assertThat(counts.coalesced).isEqualTo(2);
  }

  @Test
  void aFullBacklogTurnsNewUnitsAwayUntilItHasRoomAgain() {
    StatusWriter writer = writer(new WriteRate(1, StatusWriter.BACKLOG / 2));
    for (int i = 0; i < StatusWriter.BACKLOG; i++) {
      assertThat(writer.status(unit("u" + i, 1), saying("waits"))).isTrue();
    }

    assertThat(writer.status(unit("late", 1), saying("waits"))).isFalse();
    assertThat(writer.status(unit("u7", 1), saying("waits more"))).as("a queued unit still takes a newer status").isTrue();
    assertThat(roomAgain).isZero();

    writer.writeDue();

    assertThat(writes.log).hasSize(StatusWriter.BACKLOG / 2);
    assertThat(roomAgain).isEqualTo(1);
    assertThat(writer.status(unit("late", 1), saying("waits"))).isTrue();
  }

  @Test
  void theLoopBuildsOnWhatTheWriterStoredAndKnowsItsEventAsOurs() {
    StatusWriter writer = writer(WriteRate.DEFAULTS);
    QueueUnit held = unit("a", 5);
    writer.status(held, saying("waits"));
    writer.writeDue();

    QueueUnit stored = writer.latest(held);
    assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("6");
    assertThat(stored.getStatus().getMessage()).isEqualTo("waits");
    assertThat(writer.isOwnWrite(held, Json.copy(stored))).isTrue();
    assertThat(writer.latest(held)).as("forgotten once its event was seen").isSameAs(held);

    QueueUnit changedByOthers = Json.copy(stored);
    changedByOthers.getMetadata().setResourceVersion("7");
    assertThat(writer.isOwnWrite(stored, changedByOthers)).isFalse();
  }

  @Test
  void aLaterChangeByOthersIsNotOursAndReplacesWhatTheWriterStored() {
    StatusWriter writer = writer(WriteRate.DEFAULTS);
    QueueUnit held = unit("a", 5);
    writer.status(held, saying("waits"));
    writer.writeDue();

    QueueUnit changedByOthers = Json.copy(writer.latest(held));
    changedByOthers.getMetadata().setResourceVersion("7");

    assertThat(writer.isOwnWrite(held, changedByOthers)).isFalse();
    assertThat(writer.latest(held)).as("the loop holds version 7 now").isSameAs(held);
  }

  @Test
  void theEventOfAWriteUnderWayIsOursOnlyIfItChangedNothingButTheStatus() {
    StatusWriter writer = writer(WriteRate.DEFAULTS);
    QueueUnit held = unit("a", 5);
    List<Boolean> verdicts = new ArrayList<>();
    writes.whileStoring = stored -> {
      verdicts.add(writer.isOwnWrite(held, stored));
      QueueUnit relabelled = Json.copy(stored);
      relabelled.getMetadata().setLabels(Map.of("team", "other"));
      verdicts.add(writer.isOwnWrite(held, relabelled));
    };
    writer.status(held, saying("waits"));

    writer.writeDue();

    assertThat(verdicts).containsExactly(true, false);
    assertThat(writer.latest(held)).as("its event came first: nothing kept").isSameAs(held);
  }

  // ---- fixtures

  private StatusWriter writer(WriteRate rate) {
    return new StatusWriter(
        writes, new AdmissionContext(Clock.fixed(T0, ZoneOffset.UTC), () -> leading, counts, rate, WaitForPodsReady.DEFAULTS), nanos::get,
        new StatusWriter.Listener() {
          @Override
          public void notWritten(Set<String> unitIds) {
            notWritten.add(unitIds);
          }

          @Override
          public void roomAgain() {
            roomAgain++;
          }
        });
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void advance(Duration duration) {
    nanos.addAndGet(duration.toNanos());
  }

  private static QueueUnit unit(String name, long version) {
    QueueUnit unit = new QueueUnit();
    unit.getMetadata().setNamespace("team");
    unit.getMetadata().setName(name);
    unit.getMetadata().setResourceVersion(Long.toString(version));
    QueueUnitSpec spec = new QueueUnitSpec();
    spec.setQueue("team");
    unit.setSpec(spec);
    return unit;
  }

  private static QueueUnitStatus saying(String message) {
    QueueUnitStatus status = new QueueUnitStatus();
    status.setMessage(message);
    return status;
  }

  /** An API server of one resourceVersion counter per unit, logging what it is sent. */
  private static final class Writes implements QueueUnitWrites {
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final Set<String> refused = new HashSet<>();
    /** Runs as a status is stored, before its answer: what the loop may do meanwhile. */
    private volatile Consumer<QueueUnit> whileStoring = stored -> {};

    @Override
    public QueueUnit store(QueueUnit current, QueueUnitStatus status) {
      String id = UnitSpecs.id(current);
      if (refused.contains(id)) {
        throw new KubernetesClientException("conflict", 409, null);
      }
      log.add("status " + id + ": " + status.getMessage());
      QueueUnit stored = Json.copy(current);
      stored.setStatus(Json.copy(status));
      stored.getMetadata().setResourceVersion(
          Long.toString(Long.parseLong(current.getMetadata().getResourceVersion()) + 1));
      Consumer<QueueUnit> hook = whileStoring;
      whileStoring = unit -> {};
      hook.accept(stored);
      return stored;
    }

    @Override
    public void event(QueueUnit unit, String type, String reason, String message, Instant now) {
      log.add("event " + UnitSpecs.id(unit) + ": " + message);
    }
  }

  private static final class Counts implements AdmissionObserver {
    private int backlog;
    private int stored;
    private int failed;
    private int coalesced;
    private int dropped;

    @Override
    public void admitted(String queue, Duration waited) {}

    @Override
    public void statusBacklog(int units) {
      backlog = units;
    }

    @Override
    public void statusWritten(boolean ok) {
      if (ok) {
        stored++;
      } else {
        failed++;
      }
    }

    @Override
    public void statusCoalesced() {
      coalesced++;
    }

    @Override
    public void statusesDropped(int units) {
      dropped += units;
    }
  }
}
