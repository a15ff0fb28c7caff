package io.koord4j.simulator.inflation;

import io.koord4j.device.TaskClass;
import io.koord4j.simulator.cluster.SimCluster;
import io.koord4j.simulator.placement.PlacementPolicy;
import io.koord4j.simulator.placement.Placer;
import io.koord4j.simulator.placement.Policies;
import io.koord4j.simulator.placement.TargetWorkload;
import io.koord4j.simulator.trace.NodeSpec;
import io.koord4j.simulator.trace.TaskShape;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Workload inflation (as in "Beware of Fragmentation", USENIX ATC '23): tasks drawn from a trace
 * at random arrive one by one and never leave, until the GPUs they asked for exceed a multiple of
 * the cluster's GPU capacity; after each arrival the share of GPUs left unallocated is recorded.
 * Every policy sees the same draws in a repetition; repetitions differ by seed.
 */
public final class WorkloadInflation {

  /**
   * @param upToPercent the arrived GPU demand, in percent of the capacity, at which arrivals stop
   */
  public record Settings(List<NodeSpec> nodes, List<TaskShape> trace, int repetitions, long seed, int upToPercent) {
    public Settings {
      if (repetitions < 1) {
        throw new IllegalArgumentException("--repetitions must be at least 1: " + repetitions);
      }
      if (upToPercent < 1) {
        throw new IllegalArgumentException("--up-to must be at least 1 (percent): " + upToPercent);
      }
      if (trace.stream().noneMatch(task -> task.gpuCount() > 0)) {
        throw new IllegalArgumentException("the task trace has no GPU task: inflation would never end");
      }
    }
  }

  /**
   * One repetition of one policy.
   *
   * @param unallocatedPercent at index p, the unallocated GPU share (percent of capacity) when the
   *     arrived demand first reached p percent of the capacity
   * @param failedTasks arrivals no node could host
   */
  public record Run(String policy, int repetition, double[] unallocatedPercent, int arrivedTasks, int failedTasks) {}

  private WorkloadInflation() {}

  /** Every policy and repetition, on up to {@code threads} threads; results by policy, then repetition. */
  public static List<Run> runAll(Settings settings, List<String> policies, int threads) {
    List<TaskClass> workload = TargetWorkload.of(settings.trace());
    policies.forEach(name -> Policies.create(name, workload));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Run>> futures = new ArrayList<>();
      for (String policy : policies) {
        for (int repetition = 0; repetition < settings.repetitions(); repetition++) {
          int r = repetition;
          futures.add(pool.submit(() -> run(settings, Policies.create(policy, workload), r)));
        }
      }
      List<Run> runs = new ArrayList<>();
      for (Future<Run> future : futures) {
        runs.add(future.get());
      }
      return runs;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  public static Run run(Settings settings, PlacementPolicy policy, int repetition) {
    SplittableRandom draws = new SplittableRandom(settings.seed() + 1_000_003L * repetition);
    SplittableRandom ties = draws.split();
    SimCluster cluster = new SimCluster(settings.nodes());
    Placer placer = new Placer(cluster, policy, ties);
    long capacity = cluster.gpuCapacityMilli();
    double[] unallocated = new double[settings.upToPercent() + 1];
    unallocated[0] = 100;
    int reached = 0;
    long arrivedMilli = 0;
    int arrived = 0;
    int failed = 0;
    while (reached < settings.upToPercent()) {
      TaskShape task = settings.trace().get(draws.nextInt(settings.trace().size()));
      arrived++;
      arrivedMilli += task.gpuDemandMilli();
      if (placer.place(task).isEmpty()) {
        failed++;
      }
      double unallocatedNow = 100.0 * (capacity - cluster.gpuAllocatedMilli()) / capacity;
      while (reached < settings.upToPercent() && arrivedMilli * 100 >= (reached + 1) * capacity) {
        unallocated[++reached] = unallocatedNow;
      }
    }
    return new Run(policy.name(), repetition, unallocated, arrived, failed);
  }
}
