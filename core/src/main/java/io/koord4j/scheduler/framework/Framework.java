package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * Runs a profile's plugins at the named extension points. The scheduling cycle (PreFilter to
 * Permit) runs on one thread; Filter and Score fan out over nodes on a bounded pool.
 */
public final class Framework {

  /** kube-scheduler's floor on how many feasible nodes are worth scoring. */
  private static final int MIN_FEASIBLE_NODES_TO_FIND = 100;
  /** Nodes a thread filters or scores per claim on the shared counters. */
  private static final int CHUNK = 16;

  private final List<PreFilterPlugin> preFilters;
  private final List<FilterPlugin> filters;
  private final List<PostFilterPlugin> postFilters;
  private final List<ScorePlugin> scorers;
  private final Map<String, Integer> scoreWeights;
  private final List<ReservePlugin> reservers;
  private final List<PermitPlugin> permits;
  private final List<PreBindPlugin> preBinders;
  private final BindPlugin binder;
  private final Map<String, Set<ClusterEvent>> requeueEvents;
  private final ExecutorService pool;
  private final int parallelism;
  private final WaitingPods waitingPods;
  /** Filtering starts where the previous cycle stopped, so all nodes get their turn. */
  private final AtomicInteger nextStartNode = new AtomicInteger();

  /**
   * @param scoreWeights by plugin name; score plugins not named weigh 1
   * @param pool runs Filter and Score over nodes, {@code parallelism} tasks at a time
   */
  public Framework(
      List<? extends Plugin> plugins,
      Map<String, Integer> scoreWeights,
      ExecutorService pool,
      int parallelism,
      WaitingPods waitingPods) {
    this.preFilters = only(plugins, PreFilterPlugin.class);
    this.filters = only(plugins, FilterPlugin.class);
    this.postFilters = only(plugins, PostFilterPlugin.class);
    this.scorers = only(plugins, ScorePlugin.class);
    this.scoreWeights = Map.copyOf(scoreWeights);
    this.reservers = only(plugins, ReservePlugin.class);
    this.permits = only(plugins, PermitPlugin.class);
    this.preBinders = only(plugins, PreBindPlugin.class);
    List<BindPlugin> binders = only(plugins, BindPlugin.class);
    if (binders.size() != 1) {
      throw new IllegalArgumentException("a profile needs exactly one bind plugin: " + binders);
    }
    this.binder = binders.get(0);
    Map<String, Set<ClusterEvent>> events = new LinkedHashMap<>();
    plugins.forEach(p -> events.put(p.name(), p.requeueOn()));
    this.requeueEvents = Collections.unmodifiableMap(events);
    this.pool = pool;
    this.parallelism = parallelism;
    this.waitingPods = waitingPods;
  }

  /** For the queue: which events re-activate a pod each plugin rejected. */
  public Map<String, Set<ClusterEvent>> requeueEvents() {
    return requeueEvents;
  }

  /** The outcome of PreFilter to Score: a node, or why there is none. */
  public record Placement(String nodeName, FitError error) {
    public boolean found() {
      return nodeName != null;
    }
  }

  /** PreFilter, Filter, then Score, or PostFilter when no node fits. */
  public Placement selectNode(CycleState state, Pod pod, List<NodeInfo> nodes) {
    Status pre = preFilter(state, pod);
    if (!pre.isSuccess()) {
      return failed(state, pod, FitError.atPreFilter(nodes.size(), pre));
    }
    Map<String, Status> rejections = new ConcurrentHashMap<>();
    List<NodeInfo> feasible =
        feasibleNodes(state, pod, nodes, enoughFeasibleNodes(nodes.size()), rejections);
    if (feasible.isEmpty()) {
      return failed(state, pod, new FitError(nodes.size(), null, Map.copyOf(rejections)));
    }
    if (feasible.size() == 1) {
      return new Placement(feasible.get(0).name(), null);
    }
    return new Placement(highestScoring(state, pod, feasible), null);
  }

  /** Every PreFilter in order; the first rejection stops them. */
  public Status preFilter(CycleState state, Pod pod) {
    for (PreFilterPlugin plugin : preFilters) {
      Status status = plugin.preFilter(state, pod).by(plugin.name());
      if (!status.isSuccess()) {
        return status;
      }
    }
    return Status.SUCCESS;
  }

  /**
   * Filters every node, without stopping early, once {@link #preFilter} passed: each node's
   * status by name, {@link Status#SUCCESS} for the nodes that pass.
   */
  public Map<String, Status> filterAll(CycleState state, Pod pod, List<NodeInfo> nodes) {
    Map<String, Status> statuses = new ConcurrentHashMap<>();
    feasibleNodes(state, pod, nodes, nodes.size(), statuses)
        .forEach(node -> statuses.put(node.name(), Status.SUCCESS));
    return statuses;
  }

  /** The highest weighted total a node can score. */
  public long maxTotalScore() {
    return scorers.stream()
        .mapToLong(plugin -> ScorePlugin.MAX_SCORE * scoreWeights.getOrDefault(plugin.name(), 1))
        .sum();
  }

  private Placement failed(CycleState state, Pod pod, FitError error) {
    postFilters.forEach(plugin -> plugin.postFilter(state, pod, error));
    return new Placement(null, error);
  }

  /**
   * The nodes that pass every filter, stopping once enough are found to score well (as
   * kube-scheduler's adaptive percentage does) so large clusters stay fast. The check is made per
   * chunk of nodes, so a few more than enough may be found.
   */
  private List<NodeInfo> feasibleNodes(
      CycleState state, Pod pod, List<NodeInfo> nodes, int enough, Map<String, Status> rejections) {
    int n = nodes.size();
    if (n == 0) {
      return List.of();
    }
    int start = Math.floorMod(nextStartNode.get(), n);
    NodeInfo[] passed = new NodeInfo[n];
    AtomicInteger found = new AtomicInteger();
    AtomicInteger checked = new AtomicInteger();
    inParallelChunks(
        n,
        (from, to) -> {
          if (found.get() >= enough) {
            return;
          }
          int passedHere = 0;
          for (int i = from; i < to; i++) {
            NodeInfo node = nodes.get((start + i) % n);
            Status status = filter(state, pod, node);
            if (status.isSuccess()) {
              passed[i] = node;
              passedHere++;
            } else {
              rejections.put(node.name(), status);
            }
          }
          found.addAndGet(passedHere);
          checked.addAndGet(to - from);
        });
    nextStartNode.set(start + checked.get());
    List<NodeInfo> feasible = new ArrayList<>(Math.min(n, found.get()));
    for (NodeInfo node : passed) {
      if (node != null) {
        feasible.add(node);
      }
    }
    return feasible;
  }

  private Status filter(CycleState state, Pod pod, NodeInfo node) {
    for (FilterPlugin plugin : filters) {
      Status status = plugin.filter(state, pod, node);
      if (!status.isSuccess()) {
        return status.by(plugin.name());
      }
    }
    return Status.SUCCESS;
  }

  static int enoughFeasibleNodes(int nodeCount) {
    if (nodeCount <= MIN_FEASIBLE_NODES_TO_FIND) {
      return nodeCount;
    }
    int percentage = Math.max(5, 50 - nodeCount / 125);
    return Math.max(MIN_FEASIBLE_NODES_TO_FIND, nodeCount * percentage / 100);
  }

  /** Weighted sum of normalised scores; ties go to a random node so load spreads. */
  private String highestScoring(CycleState state, Pod pod, List<NodeInfo> feasible) {
    long[] totals = totalScores(state, pod, feasible);
    int best = 0;
    int ties = 1;
    for (int i = 1; i < totals.length; i++) {
      if (totals[i] > totals[best]) {
        best = i;
        ties = 1;
      } else if (totals[i] == totals[best] && ThreadLocalRandom.current().nextInt(++ties) == 0) {
        best = i;
      }
    }
    return feasible.get(best).name();
  }

  /** The weighted sum of each feasible node's normalised scores, in the order of {@code feasible}. */
  public long[] totalScores(CycleState state, Pod pod, List<NodeInfo> feasible) {
    long[] totals = new long[feasible.size()];
    for (ScorePlugin plugin : scorers) {
      long[] scores = new long[feasible.size()];
      inParallel(feasible.size(), i -> scores[i] = plugin.score(state, pod, feasible.get(i)));
      plugin.normalize(scores);
      int weight = scoreWeights.getOrDefault(plugin.name(), 1);
      for (int i = 0; i < totals.length; i++) {
        long score = scores[i];
        if (score < 0 || score > ScorePlugin.MAX_SCORE) {
          throw new IllegalStateException(
              plugin.name() + " scored node " + feasible.get(i).name() + " " + score
                  + ", outside 0.." + ScorePlugin.MAX_SCORE);
        }
        totals[i] += score * weight;
      }
    }
    return totals;
  }

  /** Runs {@code task(0..count-1)}, spread as {@link #inParallelChunks} spreads chunks. */
  private void inParallel(int count, IntConsumer task) {
    inParallelChunks(
        count,
        (from, to) -> {
          for (int i = from; i < to; i++) {
            task.accept(i);
          }
        });
  }

  /** Work on the indexes {@code from} (inclusive) to {@code to} (exclusive). */
  @FunctionalInterface
  private interface Chunk {
    void run(int from, int to);
  }

  /**
   * Runs {@code chunk} over {@code 0..count-1} in chunks of {@link #CHUNK} indexes, on the calling
   * thread and up to {@code parallelism - 1} pool threads, each taking the next chunk until none is
   * left. Chunks, rather than single indexes, keep the threads from contending for the shared
   * counters once per node. The caller waits only for chunks a helper has taken: on a busy machine
   * a helper that has not started yet finds nothing left, so the work is never held up waiting for
   * a thread to be scheduled.
   */
  private void inParallelChunks(int count, Chunk chunk) {
    int helpers = Math.min(parallelism, (count + CHUNK - 1) / CHUNK) - 1;
    if (helpers <= 0) {
      chunk.run(0, count);
      return;
    }
    Thread caller = Thread.currentThread();
    AtomicInteger next = new AtomicInteger();
    AtomicInteger unfinished = new AtomicInteger(count);
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    Runnable work =
        () -> {
          for (int from = next.getAndAdd(CHUNK); from < count; from = next.getAndAdd(CHUNK)) {
            int to = Math.min(count, from + CHUNK);
            try {
              chunk.run(from, to);
            } catch (RuntimeException e) {
              failure.compareAndSet(null, e);
            } finally {
              if (unfinished.addAndGet(from - to) == 0) {
                LockSupport.unpark(caller);
              }
            }
          }
        };
    for (int h = 0; h < helpers; h++) {
      pool.execute(work);
    }
    work.run();
    while (unfinished.get() > 0) {
      LockSupport.park(this);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while filtering or scoring nodes");
      }
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  /** Reserve in order; on the first failure every reserve plugin's unreserve runs. */
  public Status reserve(CycleState state, Pod pod, String nodeName) {
    for (ReservePlugin plugin : reservers) {
      Status status = plugin.reserve(state, pod, nodeName).by(plugin.name());
      if (!status.isSuccess()) {
        unreserve(state, pod, nodeName);
        return status;
      }
    }
    return Status.SUCCESS;
  }

  /** Unreserve in reverse order, undoing what reserve claimed. */
  public void unreserve(CycleState state, Pod pod, String nodeName) {
    for (int i = reservers.size() - 1; i >= 0; i--) {
      reservers.get(i).unreserve(state, pod, nodeName);
    }
  }

  /**
   * Permit: completes at once unless a plugin asks to wait, then when the pod is allowed, rejected
   * or times out.
   */
  public CompletableFuture<Status> permit(CycleState state, Pod pod, String nodeName) {
    Map<String, Duration> waitFor = new LinkedHashMap<>();
    for (PermitPlugin plugin : permits) {
      PermitPlugin.Decision decision = plugin.permit(state, pod, nodeName);
      Status status = decision.status().by(plugin.name());
      if (status.code() == Status.Code.WAIT) {
        waitFor.put(plugin.name(), decision.timeout());
      } else if (!status.isSuccess()) {
        return CompletableFuture.completedFuture(status);
      }
    }
    return waitFor.isEmpty()
        ? CompletableFuture.completedFuture(Status.SUCCESS)
        : waitingPods.hold(pod, nodeName, waitFor);
  }

  /** PreBind then Bind; the first failure ends the binding cycle. */
  public Status bind(CycleState state, Pod pod, String nodeName) {
    for (PreBindPlugin plugin : preBinders) {
      Status status = plugin.preBind(state, pod, nodeName).by(plugin.name());
      if (!status.isSuccess()) {
        return status;
      }
    }
    return binder.bind(state, pod, nodeName).by(binder.name());
  }

  private static <T> List<T> only(List<? extends Plugin> plugins, Class<T> point) {
    return plugins.stream().filter(point::isInstance).map(point::cast).toList();
  }
}
