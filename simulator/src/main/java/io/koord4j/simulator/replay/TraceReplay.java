package io.koord4j.simulator.replay;

import io.koord4j.queue.core.AdmissionCore;
import io.koord4j.queue.core.AdmissionPass;
import io.koord4j.queue.core.UnitSpec;
import io.koord4j.device.GpuAllocation;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Replays a trace in virtual time: tasks arrive at their creation time as queue units of the
 * admission core (one queue per trace queue, one quota of the whole cluster), admitted units are
 * placed by a placement policy, all pods of a gang or none, and run for their traced runtime. A
 * unit no node can host yet backs off and is retried, as the manager does when its pods cannot be
 * placed. All queues follow one {@link Queueing}; with backfill, the run records each reserved
 * unit that started later than the first start it was reserved.
 */
public final class TraceReplay {
  static final String QUOTA = "cluster";
  static final String GPU = "koordinator.sh/gpu-core";

  /** What happened to one task. {@code start} is -1 for a task that never fit. */
  public record TaskOutcome(TaskSpec task, long start) {
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
   */
  public record Result(
      String policy,
      List<TaskOutcome> outcomes,
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
  private final Map<String, TaskSpec> tasks = new HashMap<>();
  private final Map<String, List<Placement>> placements = new HashMap<>();
  private final Map<String, Long> starts = new HashMap<>();
  private final Queueing queueing;
  /** The first start reserved for each unit a backfilling queue held a start for. */
  private final Map<String, Instant> reserved = new HashMap<>();
  private final List<LateStart> lateStarts = new ArrayList<>();
  private final PriorityQueue<Running> running = new PriorityQueue<>(Comparator.comparingLong(Running::end));

  public TraceReplay(List<NodeSpec> nodes, PlacementPolicy policy, long seed, Queueing queueing) {
    this.nodes = nodes;
    this.queueing = queueing;
    this.cluster = new SimCluster(nodes);
    SplittableRandom random = new SplittableRandom(seed);
    this.placer = new Placer(cluster, policy, random.split());
    this.core = new AdmissionCore(random.split());
    this.policy = queueing == Queueing.PRIORITY ? policy.name() : policy.name() + "+" + queueing.label();
    ResourceVector total = total(nodes);
    core.setClusterTotal(total);
    core.upsertQuota(QuotaSpec.leaf(QUOTA, "", total, total));
  }

  private static ResourceVector total(List<NodeSpec> nodes) {
    long cpu = nodes.stream().mapToLong(NodeSpec::milliCpu).sum();
    long memory = nodes.stream().mapToLong(n -> n.memoryMib() << 20).sum();
    long gpu = nodes.stream().mapToLong(n -> n.gpus() * 100L).sum();
    return ResourceVector.of("cpu", cpu, "memory", memory, GPU, gpu);
  }

  /** All pods of the task together. */
  private static ResourceVector request(TaskSpec task) {
    TaskShape shape = task.shape();
    long gpu = shape.gpuCount() == 0 ? 0 : shape.isGpuShare() ? SimNode.sharePercent(shape) : shape.gpuCount() * 100L;
    long pods = task.pods();
    return ResourceVector.of("cpu", pods * shape.milliCpu(), "memory", pods * (shape.memoryMib() << 20), GPU, pods * gpu);
  }

  private UnitSpec unit(String id, TaskSpec task) {
    Duration expected = task.expectedRuntimeSeconds() > 0 ? Duration.ofSeconds(task.expectedRuntimeSeconds()) : null;
    return new UnitSpec(
        id, task.queue(), QUOTA, task.priority(), Instant.ofEpochSecond(task.creation()), request(task), 1, expected);
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
    tasks.forEach((id, task) -> outcomes.add(new TaskOutcome(task, starts.getOrDefault(id, -1L))));
    outcomes.sort(Comparator.comparingLong((TaskOutcome o) -> o.task().creation()).thenComparing(o -> o.task().name()));
    return new Result(
        policy, outcomes, gpuMilliSeconds, now - first, cluster.gpuCapacityMilli(), reserved.size(), lateStarts);
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
   * Passes until one admits nothing, placing what each admits; a unit that finds no node backs
   * off. Returns when the earliest backoff ends, null when none is pending.
   */
  private Instant admitAndPlace(long now) {
    Instant at = Instant.ofEpochSecond(now);
    AdmissionPass pass;
    do {
      pass = core.pass(at);
      pass.reservations().forEach(r -> reserved.putIfAbsent(r.unitId(), r.start()));
      for (String id : pass.admitted()) {
        TaskSpec task = tasks.get(id);
        Optional<List<Placement>> gang = placeGang(task);
        if (gang.isPresent()) {
          start(id, task, gang.get(), now);
        } else {
          core.requeue(id, at);
        }
      }
    } while (!pass.admitted().isEmpty());
    return pass.nextPassBy().orElse(null);
  }

  private void start(String id, TaskSpec task, List<Placement> gang, long now) {
    placements.put(id, gang);
    starts.put(id, now);
    core.markPodsRunning(id);
    running.add(new Running(id, now + task.runtimeSeconds()));
    Instant reservedStart = reserved.get(id);
    if (reservedStart != null && now > reservedStart.getEpochSecond()) {
      lateStarts.add(new LateStart(task.name(), reservedStart.getEpochSecond(), now));
    }
  }

  /** Every pod of the task, or none: pods placed before one that finds no node are released. */
  private Optional<List<Placement>> placeGang(TaskSpec task) {
    List<Placement> gang = new ArrayList<>();
    for (int pod = 0; pod < task.pods(); pod++) {
      Optional<Placement> placement = placer.place(task.shape());
      if (placement.isEmpty()) {
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
        gang.add(new Placement(node, candidates.get(0)));
      }
    }
    gang.forEach(placement -> empty.release(placement.node(), task.shape(), placement.gpus()));
    return gang.size() == task.pods();
  }
}
