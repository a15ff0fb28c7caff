package io.koord4j.manager.support;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles each object of one kind read through the process's shared informer, so that a kind
 * the admission loop watches already is not watched a second time for its reconciler. An object
 * is reconciled when it is added or changed, when {@link #trigger} names it, and when its last
 * reconcile asked to be run again after a while. Objects are reconciled side by side, each by one
 * thread at a time; a key waits at most once (for the earliest time asked), one triggered while
 * it runs runs again after, and a failed key is retried with a growing delay.
 *
 * @param <P> the reconciled kind
 */
public final class InformerReconciler<P extends HasMetadata> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InformerReconciler.class);
  /** Conflicts are normal under load: retry soon, and keep trying. */
  private static final Duration FIRST_RETRY = Duration.ofMillis(100);
  private static final Duration LAST_RETRY = Duration.ofSeconds(10);
  /** Objects reconciled at once: a new quota's Queue should not wait behind other quotas. */
  private static final int THREADS = 4;

  /** The work on one object; throwing asks for a retry. */
  @FunctionalInterface
  public interface Reconcile<P> {
    void reconcile(P object) throws Exception;
  }

  /** The work on one object that may ask to be run again; throwing asks for a retry. */
  @FunctionalInterface
  public interface Repeating<P> {
    /** @return after how long to reconcile the object again though nothing changed, if at all */
    Optional<Duration> reconcile(P object) throws Exception;
  }

  private final String name;
  private final SharedInformers informers;
  private final SharedIndexInformer<P> informer;
  private final Repeating<P> reconcile;
  private final ScheduledExecutorService threads;
  /** Keys scheduled and not yet started, with when; keys running; and when to run those again. */
  private final Map<String, Scheduled> waiting = new HashMap<>();
  private final Set<String> running = new HashSet<>();
  private final Map<String, Instant> again = new HashMap<>();
  private final Map<String, Integer> failures = new ConcurrentHashMap<>();
  /** Handlers on the other kinds whose changes trigger reconciles ({@link #follow}). */
  private final InformerHandlers followed = new InformerHandlers();
  private final ResourceEventHandler<P> handler =
      new ResourceEventHandler<>() {
        @Override
        public void onAdd(P object) {
          trigger(Cache.metaNamespaceKeyFunc(object));
        }

        @Override
        public void onUpdate(P before, P object) {
          trigger(Cache.metaNamespaceKeyFunc(object));
        }

        @Override
        public void onDelete(P object, boolean finalStateUnknown) {
          // Nothing to publish on an object that is gone.
        }
      };

  private record Scheduled(Instant at, ScheduledFuture<?> run) {}

  public InformerReconciler(
      String name, SharedInformers informers, Class<P> kind, Reconcile<P> reconcile) {
    this(name, informers, kind, (Repeating<P>) object -> {
      reconcile.reconcile(object);
      return Optional.empty();
    });
  }

  public InformerReconciler(
      String name, SharedInformers informers, Class<P> kind, Repeating<P> reconcile) {
    this.name = name;
    this.informers = informers;
    this.informer = informers.of(kind);
    this.reconcile = reconcile;
    this.threads = Executors.newScheduledThreadPool(THREADS, runnable -> new Thread(runnable, name));
  }

  /**
   * Tells {@code changed} of each object of another kind added, changed or removed, to trigger
   * the objects it concerns. {@link #start} lists that kind first, so that the first reconciles
   * read it whole.
   */
  public <T> void follow(SharedIndexInformer<T> other, Consumer<T> changed) {
    followed.follow(other, changed, changed);
  }

  /**
   * Lists the kinds followed, then starts reconciling: every object the informer holds, then every
   * change.
   */
  public void start() {
    CompletableFuture<?>[] listed =
        followed.informers().stream().map(informers::start).toArray(CompletableFuture[]::new);
    CompletableFuture.allOf(listed).join();
    informer.addEventHandler(handler);
    informers.start(informer).join();
  }

  /** Asks for a reconcile of the object with this key ({@code namespace/name}). */
  public void trigger(String key) {
    schedule(key, Duration.ZERO);
  }

  /** Asks for a reconcile of every object the informer holds. */
  public void triggerAll() {
    informer.getStore().listKeys().forEach(this::trigger);
  }

  @Override
  public void close() {
    informer.removeEventHandler(handler);
    threads.shutdownNow();
    followed.close();
  }

  private synchronized void schedule(String key, Duration delay) {
    if (threads.isShutdown()) {
      return;
    }
    Instant at = Instant.now().plus(delay);
    if (running.contains(key)) {
      again.merge(key, at, (a, b) -> a.isBefore(b) ? a : b);
      return;
    }
    Scheduled current = waiting.get(key);
    if (current != null) {
      if (!at.isBefore(current.at())) {
        return;
      }
      current.run().cancel(false);
    }
    waiting.put(key, new Scheduled(at, threads.schedule(() -> run(key), delay.toMillis(), TimeUnit.MILLISECONDS)));
  }

  private void run(String key) {
    synchronized (this) {
      waiting.remove(key);
      running.add(key);
    }
    Optional<Duration> next = reconcile(key);
    Instant triggered;
    synchronized (this) {
      running.remove(key);
      triggered = again.remove(key);
    }
    if (triggered != null) {
      Duration left = Duration.between(Instant.now(), triggered);
      schedule(key, left.isNegative() ? Duration.ZERO : left);
    }
    next.ifPresent(delay -> schedule(key, delay));
  }

  /** @return when to reconcile the key again: after a failure, or as the reconcile asked */
  private Optional<Duration> reconcile(String key) {
    P object = informer.getStore().getByKey(key);
    try {
      Optional<Duration> next = object == null ? Optional.empty() : reconcile.reconcile(object);
      failures.remove(key);
      return next;
    } catch (Exception e) {
      int attempt = failures.merge(key, 1, Integer::sum);
      Duration delay = retryDelay(attempt);
      LOG.warn("{}: reconcile of {} failed (attempt {}), retrying in {}", name, key, attempt, delay, e);
      return Optional.of(delay);
    }
  }

  /** Doubles from {@link #FIRST_RETRY} up to {@link #LAST_RETRY}. */
  static Duration retryDelay(int attempt) {
    int doublings = Math.min(attempt - 1, 30);
    Duration delay = FIRST_RETRY.multipliedBy(1L << doublings);
    return delay.compareTo(LAST_RETRY) > 0 ? LAST_RETRY : delay;
  }
}
