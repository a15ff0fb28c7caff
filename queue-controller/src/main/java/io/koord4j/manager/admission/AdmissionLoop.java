package io.koord4j.manager.admission;

import io.koord4j.quota.kube.QuotaResolver;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.koord4j.concurrent.DaemonThreads;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.koord4j.api.device.Device;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitConditions;
import io.koord4j.api.queue.QueueUnitPhase;
import io.koord4j.api.queue.QueueUnitStatus;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.manager.support.InformerHandlers;
import io.koord4j.manager.support.QueueUnitStatusRecorder;
import io.koord4j.manager.support.SharedInformers;
import io.koord4j.manager.support.StoredAhead;
import io.koord4j.probes.LoggedTask;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.queue.core.AdmissionCore;
import io.koord4j.queue.core.AdmissionPass;
import io.koord4j.queue.core.AdmittedUnit;
import io.koord4j.queue.core.ChargedPod;
import io.koord4j.queue.core.Preemption;
import io.koord4j.queue.core.RunLimits;
import io.koord4j.queue.core.RunVerdict;
import io.koord4j.queue.core.UnitPhase;
import io.koord4j.queue.core.UnitSpec;
import io.koord4j.queue.core.WaitForPodsReady;
import io.koord4j.queue.core.WaitingUnit;
import io.koord4j.quota.ResourceVector;
import io.koord4j.quota.kube.ElasticQuotaSpecs;
import io.koord4j.quota.kube.PodCharges;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single owner of the {@link AdmissionCore}: informer events on QueueUnits, ElasticQuotas,
 * Queues, Nodes, Devices and Pods (those no unit owns are charged to their quota) are applied on
 * one thread, bursts of them are coalesced into one pass (at most one pass starts per {@link
 * #COALESCE}), and the pass's decisions are written to
 * the units' status on that thread before it goes on. Why units wait, and events, are reported
 * through the {@link StatusWriter}, off the thread. Nodes and Devices also tell the core's {@link
 * UnitPlacements} which gangs no node could ever hold.
 *
 * <p>State lives in the cluster: on start the core is rebuilt from the informers before the
 * first pass, units whose phase is Reserved, Dequeued or Running, and evicted units whose jobs have
 * not stopped yet, counting as admitted, so a restart neither counts quota twice nor admits twice. A write that the API server refuses (conflict, unit gone)
 * is undone by re-reading the unit, and the next pass decides again.
 *
 * <p>A unit's quota is released only once its pods are gone: a finished, released or deleted
 * unit whose pods still terminate stays charged until the last of them has stopped (see {@link
 * UnitPods}).
 *
 * <p>Each pass also holds the admitted units to their {@link RunLimits}: pods ready in time,
 * {@code spec.active}, {@code maximumExecutionTimeSeconds}. An eviction it decides is stored with
 * its requeue count and time, or after the unit was set inactive, so that a restart decides
 * nothing twice; passes are due by the nearest of those deadlines.
 */
public final class AdmissionLoop implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionLoop.class);
  /** The least time from one pass's start to the next's, so that a burst of events is one pass. */
  private static final Duration COALESCE = Duration.ofMillis(100);
  private static final Duration RETRY = Duration.ofSeconds(1);
  /** How many status writes of a pass are in flight at once. */
  private static final int STATUS_WRITE_THREADS = 8;
  /** How long closing waits for the pass under way: its writes are a few API calls. */
  private static final Duration FINISH_PASS = Duration.ofSeconds(10);
  /** How often the core is compared with the cluster (see reconcileWithCluster). */
  private static final Duration RECONCILE = Duration.ofSeconds(30);
  /**
   * How long a pass may spend explaining waits (building the statuses the writer is to write); the
   * rest wait for the next pass, which follows at once. Many units seen for the first time (a start
   * over a long backlog) would otherwise hold the loop in one pass, admitting nothing meanwhile.
   */
  public static final Duration EXPLAINING_PER_PASS = Duration.ofMillis(250);

  private final KubernetesClient client;
  private final SharedInformers informers;
  private final Clock clock;
  private final AdmissionSnapshots snapshots;
  private final AdmissionObserver observer;
  private final QueueUnitStatusRecorder recorder;
  /** Writes why units wait, and events, off the loop's thread. */
  private final StatusWriter writer;
  /** Whether this replica surely still leads; checked before each write. */
  private final BooleanSupplier leading;
  /** The manager's pods-ready settings, for units of queues that set none. */
  private final WaitForPodsReady podsReady;
  private final AdmissionCore core = new AdmissionCore(new SplittableRandom());
  private final ScheduledThreadPoolExecutor thread = loopThread();
  /** Sends a pass's status writes side by side; the loop waits for their answers. */
  private final ExecutorService statusWrites =
      Executors.newFixedThreadPool(STATUS_WRITE_THREADS, DaemonThreads.numbered("admission-writes"));
  private final InformerHandlers handlers = new InformerHandlers();
  private Runnable stopReadingWrites = () -> {};

  private final Map<String, QueueUnit> units = new HashMap<>();
  private final Map<String, ElasticQuota> quotas = new HashMap<>();
  /** By {@link QueueKeys key}: namespace/name. */
  private final Map<String, Queue> queues = new HashMap<>();
  /** Each queue's pods-ready settings, read once per change of the queue. */
  private final Map<String, WaitForPodsReady> podsReadyByQueue = new HashMap<>();
  private final Map<String, ResourceVector> nodes = new HashMap<>();
  /** Whether each unit's gang could ever be placed on the nodes, asked by the core in a pass. */
  private final UnitPlacements placements = new UnitPlacements(units);
  /** Pods no unit owns, by uid, to charge them again when the quotas change. */
  private final Map<String, Pod> chargedPods = new HashMap<>();
  /**
   * Per unit, the resourceVersion of our last write: older events are stale, and the event of the
   * write itself tells nothing new; both are ignored.
   */
  private final Map<String, Long> written = new HashMap<>();
  /** Pods that still hold resources, by the unit they belong to. */
  private final UnitPods pods = new UnitPods();
  /** Deleted units whose pods still terminate: still charged, by id. */
  private final Map<String, QueueUnit> deletedHolding = new HashMap<>();
  /**
   * Per waiting unit, the wait its status was last made to say, and the unit's version then: a
   * pass in which neither changed has nothing new to write for it, which spares building and
   * comparing a status for each of many waiting units. The kind of wait last announced with an
   * event follows from it.
   */
  private final Map<String, Explained> explained = new HashMap<>();

  private record Explained(WaitingUnit waiting, String resourceVersion) {}

  /** Status writes sent by the pass under way, for the observer. */
  private int passWrites;
  /** When the pass under way must stop explaining waits (System.nanoTime). */
  private long explainUntil;
  private boolean waitsLeft;
  private boolean replayed;
  private ScheduledFuture<?> nextPass;
  private Instant nextPassAt;
  private Instant lastPassStarted = Instant.MIN;

  public AdmissionLoop(
      KubernetesClient client, SharedInformers informers, AdmissionSnapshots snapshots, AdmissionContext context) {
    this.client = client;
    this.informers = informers;
    this.snapshots = snapshots;
    this.clock = context.clock();
    this.observer = context.observer();
    this.leading = context.leading();
    this.podsReady = context.podsReady();
    this.recorder = new QueueUnitStatusRecorder(client);
    this.writer =
        new StatusWriter(
            recorder, context, System::nanoTime,
            new StatusWriter.Listener() {
              @Override
              public void notWritten(Set<String> unitIds) {
                onLoop(() -> explainAgain(unitIds));
              }

              @Override
              public void roomAgain() {
                onLoop(AdmissionLoop.this::passSoon);
              }
            });
    core.setPlacementCheck(placements);
  }

  /** Starts the informers, waits for their first lists and rebuilds the core from them. */
  public void start() throws InterruptedException {
    List<CompletableFuture<Void>> listed = new ArrayList<>(List.of(
        // Pods first, so that the replay knows which units still have pods.
        inform(informers.of(Pod.class), this::onPod, this::onPodGone),
        inform(informers.of(QueueUnit.class), this::onUnitEvent, this::onUnitGone),
        inform(informers.of(ElasticQuota.class), this::onQuota, this::onQuotaGone),
        inform(informers.of(Queue.class), this::onQueue, this::onQueueGone),
        inform(informers.of(Node.class), this::onNode, this::onNodeGone)));
    // Without the Device kind a node's GPUs are read from its allocatable.
    if (informers.serves(Device.class)) {
      listed.add(inform(informers.of(Device.class), this::onDevice, this::onDeviceGone));
    }
    CompletableFuture.allOf(listed.toArray(CompletableFuture[]::new)).join();
    stopReadingWrites = informers.onWrite(QueueUnit.class, unit -> onLoop(() -> onStored(unit)));
    writer.start();
    try {
      thread.submit(this::replay).get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot rebuild the admission state", e.getCause());
    }
    thread.scheduleWithFixedDelay(
        () -> onLoop(this::reconcileWithCluster),
        RECONCILE.toMillis(), RECONCILE.toMillis(), TimeUnit.MILLISECONDS);
    LOG.info(
        "admission loop started with {} units, {} quotas, {} queues, {} nodes",
        units.size(), quotas.size(), queues.size(), nodes.size());
  }

  /**
   * Stops the loop: events and passes not started yet are dropped, and the pass under way finishes
   * its writes before this returns, so a successor that leads afterwards never sees half of it.
   * The status writer's queue is dropped; its write under way finishes.
   */
  @Override
  public void close() {
    stopReadingWrites.run();
    handlers.close();
    thread.shutdown();
    try {
      if (!thread.awaitTermination(FINISH_PASS.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("the admission pass did not finish in {}; stopping it", FINISH_PASS);
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
    statusWrites.shutdown();
    writer.close();
  }

  private static ScheduledThreadPoolExecutor loopThread() {
    ScheduledThreadPoolExecutor thread =
        new ScheduledThreadPoolExecutor(1, task -> new Thread(task, "admission-loop"));
    // After close, nothing queued runs: only the task under way finishes.
    thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    return thread;
  }

  // ---- informer events, all on the loop thread

  private <T extends HasMetadata> CompletableFuture<Void> inform(
      SharedIndexInformer<T> informer, Consumer<T> upsert, Consumer<T> gone) {
    handlers.follow(
        informer,
        object -> onLoop(() -> upsert.accept(object)),
        object -> onLoop(() -> gone.accept(object)));
    return informers.start(informer);
  }

  /** Everything the informers hold, applied again: events seen before are idempotent. */
  private void replay() {
    handlers.informers().forEach(
        informer -> informer.getStore().list().forEach(object -> upsert((HasMetadata) object)));
    replayed = true;
    quotasChanged();
  }

  private void upsert(HasMetadata object) {
    if (object instanceof Pod pod) {
      onPod(pod);
    } else if (object instanceof QueueUnit unit) {
      onUnit(unit);
    } else if (object instanceof ElasticQuota quota) {
      onQuota(quota);
    } else if (object instanceof Queue queue) {
      onQueue(queue);
    } else if (object instanceof Node node) {
      onNode(node);
    } else if (object instanceof Device device) {
      onDevice(device);
    }
  }

  /** An informer's event: that of the status writer's own write is taken as ours. */
  private void onUnitEvent(QueueUnit unit) {
    String id = UnitSpecs.id(unit);
    long version = StoredAhead.version(unit);
    if (version > written.getOrDefault(id, 0L) && writer.isOwnWrite(units.get(id), unit)) {
      written.put(id, version);
    }
    onUnit(unit);
  }

  /**
   * A unit this process stored (a job reconciler's write: finished, running, released), taken as
   * its event, so that quota it frees is admitted again without waiting for the watch; the event
   * itself then tells nothing new. A unit the informer has not brought, or a copy older than the
   * loop's, is left to the informer.
   */
  private void onStored(QueueUnit unit) {
    String id = UnitSpecs.id(unit);
    QueueUnit held = units.get(id);
    long version = StoredAhead.version(unit);
    if (held == null || version <= Math.max(StoredAhead.version(held), written.getOrDefault(id, 0L))) {
      return;
    }
    onUnit(unit);
    written.put(id, version);
  }

  private void onUnit(QueueUnit unit) {
    String id = UnitSpecs.id(unit);
    // Older than our last write, or its echo: the core knows it already.
    long version = StoredAhead.version(unit);
    long ours = written.getOrDefault(id, 0L);
    if (version <= ours) {
      // The echo holds what the write returned: keep the informer's copy, so the unit is held once.
      if (version == ours && units.containsKey(id)) {
        units.put(id, unit);
      }
      return;
    }
    boolean known = holdsItsPods(id);
    units.put(id, unit);
    deletedHolding.remove(id);
    if (!known) {
      chargePodsAgain(id);
    }
    feed(unit);
    passSoon();
  }

  private void onUnitGone(QueueUnit unit) {
    String id = UnitSpecs.id(unit);
    units.remove(id);
    written.remove(id);
    explained.remove(id);
    writer.gone(id);
    placements.unitGone(id);
    if (pods.hasPods(id) && core.status(id).isPresent()) {
      deletedHolding.put(id, unit);
      core.holdUntilReleased(id, clock.instant());
    } else {
      core.removeUnit(id);
      chargePodsAgain(id);
    }
    passSoon();
  }

  /**
   * The unit came or went: its pods are charged by it or, without it, each to the quota the unit
   * was admitted to.
   */
  private void chargePodsAgain(String unitId) {
    pods.podsOf(unitId).forEach(this::onPod);
  }

  /** Whether a unit the loop knows holds the quota of its pods (see {@link PodCharges}). */
  private boolean holdsItsPods(String unitId) {
    return units.containsKey(unitId) || deletedHolding.containsKey(unitId);
  }

  /** The last pod of a unit stopped, or its first appeared: the unit's charge may change. */
  private void unitPodsChanged(Optional<String> unitId) {
    unitId.ifPresent(
        id -> {
          QueueUnit unit = units.get(id);
          if (unit != null) {
            feed(unit);
          } else if (!pods.hasPods(id) && deletedHolding.remove(id) != null) {
            core.removeUnit(id);
          }
          passSoon();
        });
  }

  private void onQuota(ElasticQuota quota) {
    ElasticQuota before = quotas.put(quota.getMetadata().getName(), quota);
    if (before == null || !QuotaResolver.sameForAdmission(before, quota)) {
      quotasChanged();
    }
  }

  private void onQuotaGone(ElasticQuota quota) {
    quotas.remove(quota.getMetadata().getName());
    quotasChanged();
  }

  /**
   * The tree is replaced at once, and units re-resolve their quota (one may have appeared). Before
   * the replay this waits for it: a start lists every quota, and rebuilding for each of them would
   * feed every unit once per quota.
   */
  private void quotasChanged() {
    if (!replayed) {
      return;
    }
    core.setQuotas(ElasticQuotaSpecs.belowRoot(quotas.values()));
    units.values().forEach(this::feed);
    List.copyOf(chargedPods.values()).forEach(this::onPod);
    passSoon();
  }

  private void onQueue(Queue queue) {
    boolean added = queues.put(QueueKeys.of(queue), queue) == null;
    podsReadyByQueue.put(QueueKeys.of(queue), QueueConfigs.waitForPodsReady(queue, podsReady));
    core.upsertQueue(QueueConfigs.from(queue));
    if (added) {
      refeedUnitsNaming(queue);
    }
    passSoon();
  }

  private void onQueueGone(Queue queue) {
    queues.remove(QueueKeys.of(queue));
    podsReadyByQueue.remove(QueueKeys.of(queue));
    core.removeQueue(QueueKeys.of(queue));
    refeedUnitsNaming(queue);
    passSoon();
  }

  /**
   * Units naming the queue's name may now resolve to another namespace's Queue of that name. The
   * replay feeds every unit once all queues are known.
   */
  private void refeedUnitsNaming(Queue queue) {
    if (!replayed) {
      return;
    }
    String name = queue.getMetadata().getName();
    units.values().stream()
        .filter(unit -> name.equals(unit.getSpec().getQueue()) || unit.getSpec().getQueue() == null)
        .toList()
        .forEach(this::feed);
  }

  /**
   * Pod status changes are many; a pass follows only those that change a quota's charge: that of
   * a pod no unit owns, or whether a unit still has pods.
   */
  private void onPod(Pod pod) {
    // Its unit's gang may now be ready, which the pass records (see holdToRunLimits).
    if (pods.becomesReady(pod)) {
      passSoon();
    }
    unitPodsChanged(pods.update(pod));
    String uid = pod.getMetadata().getUid();
    Optional<ChargedPod> charge = PodCharges.of(pod, quotas, this::holdsItsPods);
    boolean changed;
    if (charge.isPresent()) {
      chargedPods.put(uid, pod);
      changed = core.upsertPod(uid, charge.get());
    } else {
      chargedPods.remove(uid);
      changed = core.removePod(uid);
    }
    if (changed) {
      passSoon();
    }
  }

  private void onPodGone(Pod pod) {
    unitPodsChanged(pods.remove(pod));
    chargedPods.remove(pod.getMetadata().getUid());
    if (core.removePod(pod.getMetadata().getUid())) {
      passSoon();
    }
  }

  private void onNode(Node node) {
    placements.node(node);
    nodes.put(
        node.getMetadata().getName(),
        ResourceQuantities.toVector(node.getStatus() == null ? null : node.getStatus().getAllocatable()));
    clusterChanged();
  }

  private void onNodeGone(Node node) {
    placements.nodeGone(node);
    nodes.remove(node.getMetadata().getName());
    clusterChanged();
  }

  private void onDevice(Device device) {
    placements.device(device);
    passSoon();
  }

  private void onDeviceGone(Device device) {
    placements.deviceGone(device);
    passSoon();
  }

  private void clusterChanged() {
    core.setClusterTotal(nodes.values().stream().reduce(ResourceVector.EMPTY, ResourceVector::add));
    passSoon();
  }

  /**
   * Tells the core what the cluster says about a unit. An evicted unit keeps its quota until its
   * job reconciler, having seen the job stopped, clears QuotaReserved; only then is the core told
   * to requeue it. A unit whose pods still terminate keeps it until they are gone; a finished one
   * only for pods being deleted, as pods its owner keeps running are the owner's. Every step is
   * read from the unit's status and the pods, so a restart resumes where it was.
   */
  private void feed(QueueUnit unit) {
    String id = UnitSpecs.id(unit);
    QueueUnitStatus status = unit.getStatus();
    boolean podsLeft = pods.hasPods(id);
    if (!unit.getSpec().isActive() && !UnitStatuses.holdsQuota(status) && !podsLeft) {
      // Deactivated: out of its queue until someone sets it active again.
      core.removeUnit(id);
      return;
    }
    core.upsertUnit(UnitSpecs.from(unit, quotas, queues, pods.succeeded(id)));
    if (UnitStatuses.isFinished(status)) {
      if (pods.hasPodsBeingDeleted(id)) {
        core.holdUntilReleased(id, admittedAt(status));
      } else {
        core.markFinished(id);
      }
      return;
    }
    core.restoreRequeues(id, UnitStatuses.requeues(status), UnitStatuses.requeueAt(status));
    UnitPhase held = core.status(id).orElseThrow().phase();
    if (UnitStatuses.isAdmitted(status) || UnitStatuses.isReserved(status)) {
      core.markAdmitted(id, admittedAt(status));
      if (QueueUnitPhase.RUNNING.equals(status.getPhase())) {
        core.markPodsRunning(id);
      }
    } else if (UnitStatuses.awaitsRelease(status)) {
      core.markPreempted(id, admittedAt(status));
    } else if (podsLeft) {
      core.holdUntilReleased(id, admittedAt(status));
    } else if (held == UnitPhase.ADMITTED
        || (held == UnitPhase.PENDING && UnitStatuses.awaitsBackoff(status))) {
      requeue(id, status);
    }
  }

  /** Backs the unit off until the time its eviction recorded, else for its queue's backoff. */
  private void requeue(String id, QueueUnitStatus status) {
    Instant recorded = UnitStatuses.requeueAt(status);
    if (recorded == null) {
      core.requeue(id, clock.instant());
    } else {
      core.requeueUntil(id, recorded);
    }
  }

  // ---- passes

  /**
   * A pass at once, or {@link #COALESCE} after the last one started: an event after a quiet spell
   * (such as the quota a finished job frees) is decided without waiting, while events queued on
   * the loop's thread ahead of the pass still go into it.
   */
  private void passSoon() {
    Instant now = clock.instant();
    Instant earliest = lastPassStarted.plus(COALESCE);
    passAt(earliest.isAfter(now) ? earliest : now);
  }

  private void passAt(Instant at) {
    if (!replayed || (nextPassAt != null && !nextPassAt.isAfter(at))) {
      return;
    }
    if (nextPass != null) {
      nextPass.cancel(false);
    }
    long delay = Math.max(0, Duration.between(clock.instant(), at).toMillis());
    nextPassAt = at;
    nextPass = thread.schedule(this::pass, delay, TimeUnit.MILLISECONDS);
  }

  private void pass() {
    nextPass = null;
    nextPassAt = null;
    lastPassStarted = clock.instant();
    long started = System.nanoTime();
    passWrites = 0;
    waitsLeft = false;
    try {
      Instant now = clock.instant();
      AdmissionPass pass = core.pass(now);
      admit(pass.admitted(), now);
      pass.preemptions().forEach(preemption -> preempt(preemption, now));
      pass.timedOutVictims().forEach(victim -> givenUp(victim, now));
      holdToRunLimits(now);
      explainUntil = System.nanoTime() + EXPLAINING_PER_PASS.toNanos();
      pass.waiting().values().forEach(waiting -> explain(waiting, now));
      snapshots.publish(snapshot(pass));
      pass.nextPassBy().ifPresent(this::passAt);
      if (waitsLeft) {
        passSoon();
      }
      observer.passed(Duration.ofNanos(System.nanoTime() - started), passWrites);
    } catch (RuntimeException e) {
      LOG.error("admission pass failed; trying again in {}", RETRY, e);
      passAt(clock.instant().plus(RETRY));
    }
  }

  /**
   * Stores the pass's admissions, side by side. A unit whose queue names admission checks holds
   * its quota in Reserved until they pass.
   */
  private void admit(List<String> ids, Instant now) {
    List<StatusWrite> writes = new ArrayList<>();
    List<String> queueNames = new ArrayList<>();
    for (String id : ids) {
      writer.cancel(id);
      QueueUnit unit = current(id);
      UnitSpec spec = core.status(id).orElseThrow().spec();
      List<String> checks = QueueChecks.required(queues.get(spec.queue()), unit);
      writes.add(new StatusWrite(unit, checks.isEmpty()
          ? UnitStatuses.admitted(unit, spec.quota(), now)
          : UnitStatuses.reserved(unit, spec.quota(), checks, now)));
      queueNames.add(spec.queue());
    }
    List<Boolean> stored = storeAll(writes, now);
    for (int i = 0; i < ids.size(); i++) {
      if (stored.get(i)) {
        explained.remove(ids.get(i));
        observer.admitted(queueNames.get(i), Duration.between(created(writes.get(i).unit()), now));
      }
    }
  }

  /** Evicts the unit in the cluster; its job reconciler then suspends the job (see feed). */
  private void preempt(Preemption preemption, Instant now) {
    QueueUnit unit = current(preemption.unitId());
    if (store(unit, UnitStatuses.preempted(unit, preemption.reason(), now), now)) {
      writer.event(unit, "Warning", "Preempted", preemption.reason(), now);
    }
  }

  /**
   * Holds every admitted unit to its {@link RunLimits}: records pods that became ready, evicts
   * units whose pods are late (requeued) or that are inactive or past their time (deactivated),
   * and passes again by the nearest deadline ahead.
   */
  private void holdToRunLimits(Instant now) {
    List<StatusWrite> evictions = new ArrayList<>();
    changingVerdicts(now).forEach((id, verdict) -> {
      QueueUnit unit = current(id);
      if (verdict instanceof RunVerdict.RecordPodsReady) {
        // A record, not a decision: written off the loop; if lost, the next pass records it again.
        writer.status(unit, UnitStatuses.podsReady(unit, now));
      } else {
        evictionWrite(unit, verdict, now).ifPresent(evictions::add);
      }
    });
    List<Boolean> stored = storeAll(evictions, now);
    for (int i = 0; i < evictions.size(); i++) {
      if (stored.get(i)) {
        announce(units.get(UnitSpecs.id(evictions.get(i).unit())), evictions.get(i).desired(), now);
      }
    }
  }

  /** The admitted units' verdicts but those that keep them; a pass is due by the deadlines of those. */
  private Map<String, RunVerdict> changingVerdicts(Instant now) {
    Map<String, RunVerdict> changing = new HashMap<>();
    units.forEach((id, held) -> {
      if (!AdmittedUnitFacts.holdsAdmission(held)) {
        return;
      }
      // The writer's newer copy, if any, may have recorded PodsReady already.
      AdmittedUnit facts = AdmittedUnitFacts.of(writer.latest(held), pods.readyOrSucceeded(id));
      RunVerdict verdict = RunLimits.review(facts, podsReadyOf(id), now);
      if (verdict instanceof RunVerdict.Keep keep) {
        keep.reviewAt().ifPresent(this::passAt);
      } else {
        changing.put(id, verdict);
      }
    });
    return changing;
  }

  private WaitForPodsReady podsReadyOf(String id) {
    return core.status(id).map(status -> podsReadyByQueue.get(status.spec().queue())).orElse(podsReady);
  }

  /**
   * The eviction a verdict calls for. A deactivation the unit's owner did not ask for is stored in
   * its spec first, so that whatever follows, the unit stays inactive; empty when that fails.
   */
  private Optional<StatusWrite> evictionWrite(QueueUnit unit, RunVerdict verdict, Instant now) {
    if (verdict instanceof RunVerdict.Requeue requeue) {
      return Optional.of(new StatusWrite(unit, UnitStatuses.podsReadyTimedOut(
          unit, requeue.requeues(), requeue.requeueAt(), requeue.message(), now)));
    }
    RunVerdict.Deactivate deactivate = (RunVerdict.Deactivate) verdict;
    return setInactive(unit).map(inactive -> new StatusWrite(inactive, UnitStatuses.deactivated(
        inactive, evictedReason(deactivate.cause()), deactivate.message(), now)));
  }

  private static String evictedReason(RunVerdict.Cause cause) {
    return cause == RunVerdict.Cause.MAXIMUM_EXECUTION_TIME
        ? QueueUnitConditions.REASON_MAXIMUM_EXECUTION_TIME_EXCEEDED
        : QueueUnitConditions.REASON_DEACTIVATED;
  }

  private Optional<QueueUnit> setInactive(QueueUnit unit) {
    if (!unit.getSpec().isActive()) {
      return Optional.of(unit);
    }
    if (!leading.getAsBoolean()) {
      return Optional.empty();
    }
    try {
      return Optional.of(client.resources(QueueUnit.class)
          .inNamespace(unit.getMetadata().getNamespace())
          .withName(unit.getMetadata().getName())
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"active\":false}}"));
    } catch (KubernetesClientException e) {
      LOG.warn("cannot deactivate {}; the next pass tries again", UnitSpecs.id(unit), e);
      passAt(clock.instant().plus(RETRY));
      return Optional.empty();
    }
  }

  /**
   * An eviction the loop stored: the core learns that the unit still holds its quota until its
   * job stops, and the unit and its job get an event that says why.
   */
  private void announce(QueueUnit stored, QueueUnitStatus written, Instant now) {
    feed(stored);
    Condition evicted = UnitStatuses.find(written.getConditions(), QueueUnitConditions.EVICTED);
    writer.event(stored, "Warning", evicted.getReason(), evicted.getMessage(), now);
  }

  /** A victim that did not stop in time: said on the unit and counted; preemption went on. */
  private void givenUp(String id, Instant now) {
    QueueUnit unit = units.get(id);
    core.status(id).ifPresent(status -> observer.victimTimedOut(status.spec().queue()));
    if (unit != null) {
      writer.event(
          unit, "Warning", "PreemptionTimeout",
          "preempted but its job did not stop within " + AdmissionCore.VICTIM_TIMEOUT
              + "; preemption goes on without waiting for it",
          now);
    }
  }

  /**
   * Says why a unit waits, when the kind of wait or the phase changes: amounts that move with
   * every admission elsewhere are not worth a write per waiting unit. An event only when the kind
   * of wait changes. The status writer writes both; while its backlog is full, the unit is left
   * for a pass after it has room.
   */
  private void explain(WaitingUnit waiting, Instant now) {
    String id = waiting.unitId();
    Explained last = explained.get(id);
    boolean unchanged =
        last != null
            && last.waiting().equals(waiting)
            && Objects.equals(last.resourceVersion(), units.get(id).getMetadata().getResourceVersion());
    if (unchanged) {
      return;
    }
    // Left unexplained, the unit is taken up by the next pass.
    if (System.nanoTime() > explainUntil) {
      waitsLeft = true;
      return;
    }
    QueueUnit unit = current(id);
    QueueUnitStatus desired = UnitStatuses.waiting(unit, waiting, core.status(id).orElseThrow(), now);
    // Unknown since this replica started: what the stored status says was announced.
    boolean newKind =
        last == null
            ? !UnitStatuses.sameWait(unit.getStatus(), desired)
            : !UnitStatuses.waitKind(waiting.reason()).equals(UnitStatuses.waitKind(last.waiting().reason()));
    boolean rewrite = newKind || UnitStatuses.changesMoreThanItsWaitMessage(unit.getStatus(), desired);
    if (rewrite && !writer.status(unit, desired)) {
      return;
    }
    explained.put(id, new Explained(waiting, unit.getMetadata().getResourceVersion()));
    if (newKind) {
      writer.event(unit, "Normal", UnitStatuses.REASON_PENDING, waiting.reason().message(), now);
    }
  }

  /** The writer did not store these units' statuses: the next pass explains them again. */
  private void explainAgain(Set<String> unitIds) {
    unitIds.forEach(explained::remove);
    passAt(clock.instant().plus(RETRY));
  }

  /** The unit as the loop holds it, or as the status writer stored it since. */
  private QueueUnit current(String id) {
    QueueUnit held = units.get(id);
    return held == null ? null : writer.latest(held);
  }

  /** A status the pass stores. */
  private record StatusWrite(QueueUnit unit, QueueUnitStatus desired) {}

  /** What became of one write, taken up on the loop's thread. */
  private record WriteOutcome(boolean leading, Optional<QueueUnit> stored, KubernetesClientException refused) {}

  /**
   * Writes a status; a refused write is undone by re-reading the unit. A replica that may no
   * longer lead writes nothing and forgets the decision.
   */
  private boolean store(QueueUnit unit, QueueUnitStatus desired, Instant now) {
    return storeAll(List.of(new StatusWrite(unit, desired)), now).get(0);
  }

  /**
   * Stores statuses as {@link #store} does, sent side by side on the write threads and each
   * checked against the lease just before it is sent; returns once all are answered. One at a
   * time, a pass that admitted many units held the loop for a round trip each.
   *
   * @return per write, in order, whether it was stored
   */
  private List<Boolean> storeAll(List<StatusWrite> writes, Instant now) {
    List<CompletableFuture<WriteOutcome>> sent =
        writes.stream()
            .map(write -> CompletableFuture.supplyAsync(() -> send(write, now), statusWrites))
            .toList();
    List<Boolean> stored = new ArrayList<>();
    for (int i = 0; i < writes.size(); i++) {
      stored.add(takeUp(writes.get(i).unit(), sent.get(i).join()));
    }
    return stored;
  }

  private WriteOutcome send(StatusWrite write, Instant now) {
    if (!leading.getAsBoolean()) {
      return new WriteOutcome(false, Optional.empty(), null);
    }
    try {
      return new WriteOutcome(true, recorder.record(write.unit(), write.desired(), now), null);
    } catch (KubernetesClientException e) {
      return new WriteOutcome(true, Optional.empty(), e);
    }
  }

  private boolean takeUp(QueueUnit unit, WriteOutcome outcome) {
    String id = UnitSpecs.id(unit);
    if (!outcome.leading()) {
      LOG.warn("not writing the status of {}: this replica may no longer lead", id);
      reset(unit);
      return false;
    }
    if (outcome.refused() != null) {
      passWrites++;
      LOG.debug("status write of {} refused ({}); re-reading it", id, outcome.refused().getCode());
      reread(id);
      return false;
    }
    outcome.stored().ifPresent(
        written -> {
          passWrites++;
          units.put(id, written);
          this.written.put(id, StoredAhead.version(written));
          // The unit's job is resumed (or stopped) on it now, not once the informer brings it.
          informers.wrote(written);
        });
    return outcome.stored().isPresent();
  }

  /**
   * Replaces the core's view of a unit by the cluster's, forgetting an admission or a preemption
   * that was not stored. When the unit cannot be re-read either, the last state seen of it stands
   * in: a write that failed is never taken as done, and the informer brings any newer state.
   */
  private void reread(String id) {
    String[] namespaceAndName = id.split("/", 2);
    QueueUnit fresh;
    try {
      fresh =
          client.resources(QueueUnit.class)
              .inNamespace(namespaceAndName[0])
              .withName(namespaceAndName[1])
              .get();
    } catch (KubernetesClientException e) {
      LOG.warn("cannot re-read unit {}; going by its last known state", id, e);
      fresh = units.get(id);
      passAt(clock.instant().plus(RETRY));
    }
    if (fresh == null) {
      written.remove(id);
      onUnitGone(units.get(id));
    } else {
      reset(fresh);
    }
  }

  /** Feeds the unit as if first seen, dropping what the core decided for it alone. */
  private void reset(QueueUnit unit) {
    String id = UnitSpecs.id(unit);
    written.remove(id);
    explained.remove(id);
    if (core.status(id).map(status -> status.phase() == UnitPhase.ADMITTED).orElse(false)) {
      core.removeUnit(id);
    }
    onUnit(unit);
  }

  /**
   * Checks, now and then, that the core holds quota for exactly the units the cluster shows
   * holding it, and resets any unit on which they disagree: a safety net under the write path.
   */
  private void reconcileWithCluster() {
    List<QueueUnit> drifted =
        units.entrySet().stream()
            .filter(unit -> core.status(unit.getKey()).isPresent())
            .filter(unit -> coreHoldsQuota(unit.getKey()) != clusterHoldsQuota(unit.getKey(), unit.getValue()))
            .map(Map.Entry::getValue)
            .toList();
    if (!drifted.isEmpty()) {
      LOG.warn("admission state of {} units differed from the cluster; reset", drifted.size());
      drifted.forEach(this::reset);
      passSoon();
    }
  }

  private boolean coreHoldsQuota(String id) {
    return core.status(id).orElseThrow().phase() == UnitPhase.ADMITTED;
  }

  private boolean clusterHoldsQuota(String id, QueueUnit unit) {
    return UnitStatuses.holdsQuota(unit.getStatus()) || pods.hasPods(id);
  }

  private AdmissionSnapshot snapshot(AdmissionPass pass) {
    Map<String, AdmissionSnapshot.QuotaFigures> quotaFigures = new HashMap<>();
    quotas.forEach(
        (name, quota) ->
            quotaFigures.put(
                name,
                new AdmissionSnapshot.QuotaFigures(
                    quota.getMetadata().getNamespace(),
                    core.used(name),
                    core.runtime(name),
                    core.request(name))));
    Map<String, Long> admitted = new HashMap<>();
    units.keySet().stream()
        .map(core::status)
        .flatMap(Optional::stream)
        .filter(status -> status.phase() == UnitPhase.ADMITTED)
        .forEach(status -> admitted.merge(status.spec().queue(), 1L, Long::sum));
    // Grouped once: a pass over every queue's share would cost queues × waiting units.
    Map<String, List<WaitingUnit>> waitingByQueue =
        pass.waiting().values().stream().collect(Collectors.groupingBy(WaitingUnit::queue));
    Map<String, AdmissionSnapshot.QueueFigures> queueFigures = new HashMap<>();
    queues.forEach(
        (key, queue) -> {
          List<WaitingUnit> waiting = waitingByQueue.getOrDefault(key, List.of());
          queueFigures.put(
              key,
              new AdmissionSnapshot.QueueFigures(
                  QueueItems.of(waiting, units), waiting.size(), admitted.getOrDefault(key, 0L)));
        });
    return new AdmissionSnapshot(quotaFigures, queueFigures);
  }

  // ---- helpers

  private void onLoop(Runnable task) {
    try {
      thread.execute(LoggedTask.of(LOG, "cannot apply an informer event", task));
    } catch (RejectedExecutionException e) {
      // Closed: the event no longer matters.
    }
  }

  private static Instant created(QueueUnit unit) {
    String created = unit.getMetadata().getCreationTimestamp();
    return created == null ? Instant.EPOCH : Instant.parse(created);
  }

  private Instant admittedAt(QueueUnitStatus status) {
    return Optional.ofNullable(status.getLastAllocateTime())
        .map(Instant::parse)
        .orElseGet(clock::instant);
  }
}
