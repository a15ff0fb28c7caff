package io.koord4j.manager.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.manager.support.Json;
import io.koord4j.manager.support.QueueUnitStatusRecorder;
import io.koord4j.manager.support.QueueUnitWrites;
import io.koord4j.manager.support.StoredAhead;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes, off the admission loop's thread, what the loop only reports: why a unit waits and its
 * place in its queue (the unit's status), and events. Decisions (admissions, preemptions) are not
 * written here: the loop writes each itself before it goes on.
 *
 * <p>A few threads write, taking units in the order they were queued; a unit under way is not
 * taken again until its write is done, so two writes of one unit never swap. One API call at a
 * time would cap the writes at one per round trip, below the rate allowed. A unit is queued at
 * most once: a newer status replaces the one queued, so only the latest is written; its events
 * are all kept, in order, and go after its status. Writes follow a token bucket
 * ({@link WriteRate}). Each status write carries the resourceVersion its status was built on, so a
 * unit changed meanwhile refuses it, and the loop is told to explain that unit again. A replica
 * that may no longer lead writes nothing: it drops the queue.
 */
public final class StatusWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StatusWriter.class);
  /** Units queued at most; further units are explained by a later pass, once there is room. */
  static final int BACKLOG = 1_000;
  /** Writes under way at most: the threads that make them. */
  static final int WRITERS = 4;
  /** How long closing waits for the writes under way: one API call each. */
  private static final Duration FINISH_WRITE = Duration.ofSeconds(10);

  /** Told what became of the writes, on a writer's thread, maybe under its lock: hand work over only. */
  interface Listener {
    /** The statuses of these units were not stored: refused, failed, or dropped. */
    void notWritten(Set<String> unitIds);

    /** The backlog, which was full, has room again. */
    void roomAgain();
  }

  private final QueueUnitWrites writes;
  private final BooleanSupplier leading;
  private final Clock clock;
  private final TokenBucket bucket;
  private final AdmissionObserver observer;
  private final Listener listener;
  private final List<Thread> threads = new ArrayList<>();

  /** Writes to make, by unit id, in the order first queued. Guarded by this. */
  private final Map<String, Pending> queue = new LinkedHashMap<>();
  /** Units whose writes are under way: not taken again until done. Guarded by this. */
  private final Set<String> writing = new HashSet<>();
  /** Whether a unit was turned away since the backlog last had room. Guarded by this. */
  private boolean full;
  private boolean closed;

  /**
   * Per unit, what this writer stored, until the loop holds that version or a newer one: the loop
   * builds on it meanwhile, and knows its event as its own.
   */
  private final Map<String, QueueUnit> stored = new ConcurrentHashMap<>();
  /** Status writes under way by unit id, so that their events are known as ours before their answers are in. */
  private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();

  private static final class InFlight {
    private final JsonNode status;
    /** Whether the loop has seen its event: what it stores need not be kept then. */
    private volatile boolean seen;

    private InFlight(JsonNode status) {
      this.status = status;
    }
  }

  private record Notice(String type, String reason, String message, Instant at) {}

  private static final class Pending {
    private QueueUnit unit;
    private QueueUnitStatus status;
    private final List<Notice> events = new ArrayList<>();

    private Pending(QueueUnit unit) {
      this.unit = unit;
    }

    private int cost() {
      return (status == null ? 0 : 1) + events.size();
    }
  }

  /** @param nanoTime a monotonic clock for the rate */
  StatusWriter(QueueUnitWrites writes, AdmissionContext context, LongSupplier nanoTime, Listener listener) {
    this.writes = writes;
    this.leading = context.leading();
    this.clock = context.clock();
    this.bucket = new TokenBucket(context.statusWrites(), nanoTime);
    this.observer = context.observer();
    this.listener = listener;
    for (int i = 0; i < WRITERS; i++) {
      Thread thread = new Thread(this::run, "status-writer-" + i);
      thread.setDaemon(true);
      threads.add(thread);
    }
  }

  void start() {
    threads.forEach(Thread::start);
  }

  /**
   * Queues the unit's status, replacing one queued before.
   *
   * @param unit the unit the status was built on: the write is refused if it changed since
   * @return false when the backlog is full and the unit not in it: nothing was queued
   */
  synchronized boolean status(QueueUnit unit, QueueUnitStatus status) {
    String id = UnitSpecs.id(unit);
    Pending pending = queue.get(id);
    if (pending == null) {
      if (queue.size() >= BACKLOG) {
        full = true;
        return false;
      }
      pending = add(id, unit);
    } else if (pending.status != null) {
      observer.statusCoalesced();
    }
    pending.unit = unit;
    pending.status = status;
    return true;
  }

  /** Queues an Event on the unit and its job, after the unit's queued status. */
  synchronized void event(QueueUnit unit, String type, String reason, String message, Instant at) {
    String id = UnitSpecs.id(unit);
    Pending pending = queue.get(id);
    if (pending == null) {
      pending = add(id, unit);
    }
    pending.events.add(new Notice(type, reason, message, at));
  }

  /** The loop writes a decision for the unit: a status queued before would only be refused. */
  synchronized void cancel(String id) {
    Pending pending = queue.get(id);
    if (pending == null || pending.status == null) {
      return;
    }
    pending.status = null;
    observer.statusCoalesced();
    if (pending.events.isEmpty()) {
      queue.remove(id);
      observer.statusBacklog(queue.size());
    }
  }

  /** The unit is gone: its status is not written; its events still are. */
  void gone(String id) {
    cancel(id);
    stored.remove(id);
  }

  /**
   * The newest version of a unit known here: {@code held}, the loop's copy, or the one this
   * writer stored after it, whose event the loop has not seen yet.
   */
  QueueUnit latest(QueueUnit held) {
    String id = UnitSpecs.id(held);
    long version = StoredAhead.version(held);
    QueueUnit ours = stored.computeIfPresent(id, (key, unit) -> StoredAhead.version(unit) > version ? unit : null);
    return ours == null ? held : ours;
  }

  /**
   * Whether {@code seen} is the event of this writer's own write of the unit, which tells the loop
   * nothing new: the version it stored, or, while the write is under way, the status it sent on
   * {@code held} (the loop's copy) with nothing else changed.
   */
  boolean isOwnWrite(QueueUnit held, QueueUnit seen) {
    String id = UnitSpecs.id(seen);
    QueueUnit ours = stored.get(id);
    // The loop holds this version or a newer one from now on.
    if (ours != null && StoredAhead.version(ours) <= StoredAhead.version(seen)) {
      stored.remove(id, ours);
      if (StoredAhead.version(ours) == StoredAhead.version(seen)) {
        return true;
      }
    }
    InFlight sending = inFlight.get(id);
    boolean echo = held != null
        && sending != null
        && sending.status.equals(Json.tree(seen.getStatus()))
        && sameButStatus(held, seen);
    if (echo) {
      sending.seen = true;
    }
    return echo;
  }

  /**
   * Writes what the rate allows now, of the units not under way on another thread.
   *
   * @return nanoseconds until the next write may go, or 0 when nothing queued can be taken
   */
  long writeDue() {
    while (true) {
      Map.Entry<String, Pending> next;
      synchronized (this) {
        Optional<String> unit = nextUnit();
        if (unit.isEmpty()) {
          return 0;
        }
        if (!leading.getAsBoolean()) {
          Set<String> dropped = dropAll();
          LOG.warn("dropped the status writes of {} units: this replica may no longer lead", dropped.size());
          listener.notWritten(dropped);
          return 0;
        }
        long wait = bucket.nanosUntilToken();
        if (wait > 0) {
          return wait;
        }
        next = take(unit.get());
      }
      try {
        write(next.getKey(), next.getValue());
      } finally {
        done(next.getKey());
      }
    }
  }

  /** Stops writing: what is queued is dropped, the writes under way finish first. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      dropAll();
      notifyAll();
    }
    long deadline = System.nanoTime() + FINISH_WRITE.toNanos();
    try {
      for (Thread thread : threads) {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The first queued unit whose write is not under way, if any. Guarded by this. */
  private Optional<String> nextUnit() {
    return queue.keySet().stream().filter(id -> !writing.contains(id)).findFirst();
  }

  private synchronized void done(String id) {
    writing.remove(id);
    if (queue.containsKey(id)) {
      notifyAll();
    }
  }

  private Pending add(String id, QueueUnit unit) {
    Pending pending = new Pending(unit);
    queue.put(id, pending);
    observer.statusBacklog(queue.size());
    notifyAll();
    return pending;
  }

  private Map.Entry<String, Pending> take(String id) {
    Pending pending = queue.remove(id);
    writing.add(id);
    bucket.spend(pending.cost());
    observer.statusBacklog(queue.size());
    if (full && queue.size() <= BACKLOG / 2) {
      full = false;
      listener.roomAgain();
    }
    return Map.entry(id, pending);
  }

  private Set<String> dropAll() {
    Set<String> ids = Set.copyOf(queue.keySet());
    if (!ids.isEmpty()) {
      queue.clear();
      observer.statusesDropped(ids.size());
      observer.statusBacklog(0);
    }
    return ids;
  }

  private void write(String id, Pending pending) {
    if (pending.status != null) {
      writeStatus(id, pending.unit, pending.status);
    }
    for (Notice event : pending.events) {
      writes.event(pending.unit, event.type(), event.reason(), event.message(), event.at());
      observer.eventSent();
    }
  }

  private void writeStatus(String id, QueueUnit unit, QueueUnitStatus desired) {
    Optional<QueueUnitStatus> changed = QueueUnitStatusRecorder.changed(unit, desired, clock.instant());
    if (changed.isEmpty()) {
      return;
    }
    InFlight sending = new InFlight(Json.tree(changed.get()));
    inFlight.put(id, sending);
    try {
      QueueUnit result = writes.store(unit, changed.get());
      stored.put(id, result);
      inFlight.remove(id);
      // Its event came first: the loop holds this version already.
      if (sending.seen) {
        stored.remove(id, result);
      }
      observer.statusWritten(true);
    } catch (RuntimeException e) {
      observer.statusWritten(false);
      LOG.debug("status write of {} not stored ({}); it is explained again", id, e.getMessage());
      listener.notWritten(Set.of(id));
    } finally {
      inFlight.remove(id);
    }
  }

  private void run() {
    long wait = 0;
    while (true) {
      synchronized (this) {
        try {
          if (!closed && nextUnit().isEmpty()) {
            wait();
          } else if (!closed && wait > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, wait);
          }
        } catch (InterruptedException e) {
          return;
        }
        if (closed) {
          return;
        }
      }
      try {
        wait = writeDue();
      } catch (RuntimeException e) {
        LOG.error("status writer failed; going on", e);
        wait = 0;
      }
    }
  }

  /** Equal but for the status and what any write changes (resourceVersion, managedFields). */
  private static boolean sameButStatus(QueueUnit a, QueueUnit b) {
    return Json.same(withoutStatus(a), withoutStatus(b));
  }

  private static QueueUnit withoutStatus(QueueUnit unit) {
    QueueUnit copy = Json.copy(unit);
    copy.setStatus(null);
    copy.getMetadata().setResourceVersion(null);
    copy.getMetadata().setManagedFields(null);
    return copy;
  }
}
