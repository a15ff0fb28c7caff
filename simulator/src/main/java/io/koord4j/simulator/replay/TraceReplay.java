package io.koord4j.simulator.replay;

import io.koord4j.api.WellKnown;
import io.koord4j.device.GpuAllocation;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.queue.core.AdmissionCore;
import io.koord4j.queue.core.AdmissionPass;
import io.koord4j.queue.core.Preemption;
import io.koord4j.queue.core.UnitSpec;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import io.koord4j.simulator.cluster.SimCluster;
import io.koord4j.simulator.placement.Placement;
import io.koord4j.simulator.placement.PlacementPolicy;
import io.koord4j.simulator.placement.Placer;
import io.koord4j.simulator.trace.NodeSpec;
import io.koord4j.simulator.trace.TaskShape;
import io.koord4j.simulator.trace.TaskSpec;
import io.koord4j.simulator.cluster.SimNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Replays a trace in virtual time: tasks arrive at their creation time as queue units of the
 * admission core (one queue per trace queue; one quota of the whole cluster, or a quota tree whose
 * leaves the queues name), admitted units are placed by a placement policy, all pods of a gang or
 * none, and run for their traced runtime. An admitted unit no node can host yet keeps its quota
 * and waits for room, as its pods wait in koord-scheduler: whenever tasks end, the waiting units
 * are placed first, by priority, then in the order they were admitted. A unit the core preempts
 * (a borrower whose quota a lender reclaims) stops and queues again. All queues follow one {@link Queueing}; with
 * backfill, the run records each reserved unit that started later than the first start it was
 * reserved.
 */
public final class TraceReplay {
  static final String QUOTA = "cluster";

  /** Where one pod of a task went: the node's name and the GPU minors it got (empty for none). */
  public record PlacedPod(String node, List<Integer> gpus, int tiedNodes) {}

  /**
   * What happened to one task: when it was last admitted and when its pods were placed (-1 for
   * never), and where they went.
   */
  public record TaskOutcome(TaskSpec task, long admitted, long start, List<PlacedPod> pods) {
    public long waitSeconds() {
      return start - task.creation();
    }

    public long completionSeconds() {
      return waitSeconds() + task.runtimeSeconds();
    }
  }

  /** A unit that started after the start a backfilling queue first reserved for it. */
  public record LateStart(String task, long reserved, long start) {}

  /**
   * @param gpuSecondsAllocated GPU thousandths times seconds held by running tasks
   * @param makespanSeconds from the first arrival to the last end
   * @param reservedTasks tasks a backfilling queue reserved a start for
   * @param admissions the names of the tasks in the order they were admitted (a task preempted
   *     and admitted again appears twice)
   */
  public record Result(
      String policy,
      List<TaskOutcome> outcomes,
      List<String> admissions,
      double gpuSecondsAllocated,
      long makespanSeconds,
      long gpuCapacityMilli,
      int reservedTasks,
      List<LateStart> lateStarts) {

    /** Allocated GPUs over the run, as a share of the capacity. */
    public double gpuAllocation() {
      return makespanSeconds == 0 ? 0 : gpuSecondsAllocated / ((double) gpuCapacityMilli * makespanSeconds);
    }
  }

  private record Running(String id, long end) {}

  private final List<NodeSpec> nodes;
  private final SimCluster cluster;
  private final Placer placer;
  private final AdmissionCore core;
  private final String policy;
  /** Whether tasks' queues name leaves of a quota tree, rather than all sharing one quota. */
  private final boolean quotaTree;
  private final Map<String, TaskSpec> tasks = new HashMap<>();
  private final Map<String, List<Placement>> placements = new HashMap<>();
  private final Map<String, Long> admittedAt = new HashMap<>();
  private final Map<String, Long> starts = new HashMap<>();
  /** Admitted units whose pods wait for room on the nodes, in the order they were admitted. */
  private final List<String> unplaced = new ArrayList<>();
  /** Admitted units whose pods the placement policy has seen arrive. */
  private final Set<String> arrived = new HashSet<>();
  private final Map<String, List<PlacedPod>> placedPods = new HashMap<>();
  private final List<String> admissions = new ArrayList<>();
  private final Queueing queueing;
  /** The first start reserved for each unit a backfilling queue held a start for. */
  private final Map<String, Instant> reserved = new HashMap<>();
  private final List<LateStart> lateStarts = new ArrayList<>();
  private final PriorityQueue<Running> running = new PriorityQueue<>(Comparator.comparingLong(Running::end));

  /** With one quota of the whole cluster. */
  public TraceReplay(List<NodeSpec> nodes, PlacementPolicy policy, long seed, Queueing queueing) {
    this(nodes, policy, seed, queueing, List.of());
  }

  /**
   * @param quotas a quota tree (the ElasticQuotas users apply, as the manager reads them); each
   *     task's queue names its leaf quota, as a job labelled with a quota waits in the queue of
   *     that name. Empty for one quota of the whole cluster.
   */
  public TraceReplay(
      List<NodeSpec> nodes, PlacementPolicy policy, long seed, Queueing queueing, List<QuotaSpec> quotas) {
    this.nodes = nodes;
    this.queueing = queueing;
    this.cluster = new SimCluster(nodes);
    SplittableRandom random = new SplittableRandom(seed);
    this.placer = new Placer(cluster, policy, random.split());
    this.core = new AdmissionCore(random.split());
    this.policy = queueing == Queueing.PRIORITY ? policy.name() : policy.name() + "+" + queueing.label();
    ResourceVector total = total(nodes);
    core.setClusterTotal(total);
    this.quotaTree = !quotas.isEmpty();
    if (quotaTree) {
      core.setQuotas(quotas);
    } else {
      core.upsertQuota(QuotaSpec.leaf(QUOTA, "", total, total));
    }
  }

  /** What the root quota shares: the nodes' allocatable, as the manager sums it. */
  private static ResourceVector total(List<NodeSpec> nodes) {
    long cpu = nodes.stream().mapToLong(NodeSpec::milliCpu).sum();
    long memory = nodes.stream().mapToLong(n -> n.memoryMib() << 20).sum();
    long gpus = nodes.stream().mapToLong(NodeSpec::gpus).sum();
    return ResourceVector.of(
        ResourceQuantities.CPU, cpu, ResourceQuantities.MEMORY, memory, WellKnown.NVIDIA_GPU, gpus);
  }

  /**
   * All pods of the task together, under the names its pods ask by (see {@link
   * SimNode#gpuRequest}), as the manager charges a job's pods to its quota.
   */
  private static ResourceVector request(TaskSpec task) {
    TaskShape shape = task.shape();
    long pods = task.pods();
    Map<String, Long> request = new LinkedHashMap<>();
    request.put(ResourceQuantities.CPU, pods * shape.milliCpu());
    request.put(ResourceQuantities.MEMORY, pods * (shape.memoryMib() << 20));
    if (shape.isGpuShare()) {
      request.put(WellKnown.GPU_CORE, pods * SimNode.sharePercent(shape));
      request.put(WellKnown.GPU_MEMORY_RATIO, pods * SimNode.sharePercent(shape));
    } else if (shape.gpuCount() > 0) {
      request.put(WellKnown.NVIDIA_GPU, pods * shape.gpuCount());
    }
    return ResourceVector.of(request);
  }

  private UnitSpec unit(String id, TaskSpec task) {
    Duration expected = task.expectedRuntimeSeconds() > 0 ? Duration.ofSeconds(task.expectedRuntimeSeconds()) : null;
    String quota = quotaTree ? task.queue() : QUOTA;
    return new UnitSpec(
        id, task.queue(), quota, task.priority(), Instant.ofEpochSecond(task.creation()), request(task), 1, expected);
  }

  /** Replays the whole trace; a task no node of the empty cluster could host never queues. */
  public Result run(List<TaskSpec> trace) {
    List<TaskSpec> arrivals = new ArrayList<>(trace);
    arrivals.sort(Comparator.comparingLong(TaskSpec::creation));
    SimCluster empty = new SimCluster(nodes);
    int next = 0;
    long now = arrivals.isEmpty() ? 0 : arrivals.get(0).creation();
    long first = now;
    double gpuMilliSeconds = 0;
    Instant backoffEnds = null;
    while (next < arrivals.size() || !running.isEmpty() || backoffEnds != null) {
      long upcoming = Long.MAX_VALUE;
      if (next < arrivals.size()) {
        upcoming = arrivals.get(next).creation();
      }
      if (!running.isEmpty()) {
        upcoming = Math.min(upcoming, running.peek().end());
      }
      if (backoffEnds != null) {
        // Virtual time counts whole seconds: a backoff ends at the second after it runs out.
        upcoming = Math.min(upcoming, backoffEnds.getEpochSecond() + (backoffEnds.getNano() > 0 ? 1 : 0));
      }
      upcoming = Math.max(upcoming, now);
      gpuMilliSeconds += (double) cluster.gpuAllocatedMilli() * (upcoming - now);
      now = upcoming;
      finishUntil(now);
      while (next < arrivals.size() && arrivals.get(next).creation() <= now) {
        TaskSpec task = arrivals.get(next++);
        String id = task.name() + "#" + next;
        tasks.put(id, task);
        if (fitsSomewhere(empty, task)) {
          core.upsertQueue(queueing.queue(task.queue()));
          core.upsertUnit(unit(id, task));
        }
      }
      backoffEnds = admitAndPlace(now);
    }
    List<TaskOutcome> outcomes = new ArrayList<>();
    tasks.forEach((id, task) ->
        outcomes.add(new TaskOutcome(
            task, admittedAt.getOrDefault(id, -1L), starts.getOrDefault(id, -1L), placedPods.getOrDefault(id, List.of()))));
    outcomes.sort(Comparator.comparingLong((TaskOutcome o) -> o.task().creation()).thenComparing(o -> o.task().name()));
    return new Result(
        policy, outcomes, admissions, gpuMilliSeconds, now - first, cluster.gpuCapacityMilli(), reserved.size(),
        lateStarts);
  }

  private void finishUntil(long now) {
    while (!running.isEmpty() && running.peek().end() <= now) {
      String id = running.poll().id();
      release(tasks.get(id), placements.remove(id));
      core.markFinished(id);
      core.removeUnit(id);
    }
  }

  /**
   * Places the units already waiting for room first, as their pods are retried in koord-scheduler
   * the moment a task ends, before the manager's pass starts new ones; then passes until one
   * decides nothing, stopping the units each preempts and placing what each admits. Returns when
   * the earliest backoff ends, null when none is pending.
   */
  private Instant admitAndPlace(long now) {
    Instant at = Instant.ofEpochSecond(now);
    placeWaiting(now);
    AdmissionPass pass;
    do {
      pass = core.pass(at);
      pass.reservations().forEach(r -> reserved.putIfAbsent(r.unitId(), r.start()));
      pass.preemptions().stream().map(Preemption::unitId).forEach(id -> stop(id, at));
      for (String id : pass.admitted()) {
        admittedAt.put(id, now);
        admissions.add(tasks.get(id).name());
        unplaced.add(id);
      }
      placeWaiting(now);
    } while (!pass.admitted().isEmpty() || !pass.preemptions().isEmpty());
    return pass.nextPassBy().orElse(null);
  }

  /** Every waiting unit whose gang fits now, higher priorities first, then earlier admissions. */
  private void placeWaiting(long now) {
    unplaced.sort(Comparator.comparingInt((String id) -> -tasks.get(id).priority()));
    for (var waiting = unplaced.iterator(); waiting.hasNext(); ) {
      String id = waiting.next();
      Optional<List<Placement>> gang = placeGang(id, tasks.get(id));
      if (gang.isPresent()) {
        waiting.remove();
        start(id, tasks.get(id), gang.get(), now);
      }
    }
  }

  /**
   * A preempted unit's job stops at once, releasing its nodes, and its unit queues again; once
   * admitted again, its job makes new pods.
   */
  private void stop(String id, Instant at) {
    arrived.remove(id);
    if (!unplaced.remove(id)) {
      running.removeIf(r -> r.id().equals(id));
      release(tasks.get(id), placements.remove(id));
    }
    core.requeue(id, at);
  }

  private void start(String id, TaskSpec task, List<Placement> gang, long now) {
    placements.put(id, gang);
    placedPods.put(id, gang.stream().map(this::placedPod).toList());
    starts.put(id, now);
    core.markPodsRunning(id);
    running.add(new Running(id, now + task.runtimeSeconds()));
    Instant reservedStart = reserved.get(id);
    if (reservedStart != null && now > reservedStart.getEpochSecond()) {
      lateStarts.add(new LateStart(task.name(), reservedStart.getEpochSecond(), now));
    }
  }

  private PlacedPod placedPod(Placement placement) {
    List<Integer> gpus = placement.gpus() == null ? List.of() : placement.gpus().minors();
    return new PlacedPod(nodes.get(placement.node()).name(), gpus, placement.tiedNodes());
  }

  /**
   * Every pod of the task, or none: pods placed before one that finds no node are released. On the
   * first try every pod arrives, each in its own scheduling cycle, as in koord-scheduler; tries
   * after that are the same pods again.
   */
  private Optional<List<Placement>> placeGang(String id, TaskSpec task) {
    boolean first = arrived.add(id);
    List<Placement> gang = new ArrayList<>();
    for (int pod = 0; pod < task.pods(); pod++) {
      Optional<Placement> placement = first ? placer.place(task.shape()) : placer.placeAgain(task.shape());
      if (placement.isEmpty()) {
        for (int later = pod + 1; first && later < task.pods(); later++) {
          placer.arrive(task.shape());
        }
        release(task, gang);
        return Optional.empty();
      }
      gang.add(placement.get());
    }
    return Optional.of(gang);
  }

  private void release(TaskSpec task, List<Placement> gang) {
    gang.forEach(placement -> cluster.release(placement.node(), task.shape(), placement.gpus()));
  }

  /** Whether the empty cluster could hold all the task's pods, tried first fit and undone. */
  private static boolean fitsSomewhere(SimCluster empty, TaskSpec task) {
    List<Placement> gang = new ArrayList<>();
    for (int node = 0; node < empty.size() && gang.size() < task.pods(); ) {
      List<GpuAllocation> candidates = empty.node(node).candidates(task.shape());
      if (candidates.isEmpty()) {
        node++;
      } else {
        empty.bind(node, task.shape(), candidates.get(0));
        gang.add(new Placement(node, candidates.get(0), 1));
      }
    }
    gang.forEach(placement -> empty.release(placement.node(), task.shape(), placement.gpus()));
    return gang.size() == task.pods();
  }
}
