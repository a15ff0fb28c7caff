package io.koord4j.simulator.trace;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * The shares of a task list that a trace variant sets, measured as Alibaba's published variants of
 * its GPU trace measure them ({@code openb_pod_list_gpushare*}, {@code multigpu*}, {@code gpuspec*},
 * {@code cpu*}): each is the weight of the tasks it names over the weight of all tasks.
 */
public enum VariantShare {
  /** GPU demand of tasks that take a share of one GPU, over all GPU demand. */
  FRACTIONAL("fractional", TaskShape::isGpuShare, TaskShape::gpuDemandMilli),
  /** GPU demand of tasks of 2 or more GPUs, over all GPU demand. */
  MULTI_GPU("multi-gpu", task -> task.gpuCount() > 1, TaskShape::gpuDemandMilli),
  /** GPU tasks bound to GPU models, over all GPU tasks. */
  MODEL("model", task -> !task.models().isEmpty(), task -> task.gpuCount() > 0 ? 1 : 0),
  /** Tasks without GPUs, over all tasks. */
  CPU_ONLY("cpu-only", task -> task.gpuCount() == 0, task -> 1);

  private final String key;
  private final Predicate<TaskShape> counted;
  private final ToLongFunction<TaskShape> weight;

  VariantShare(String key, Predicate<TaskShape> counted, ToLongFunction<TaskShape> weight) {
    this.key = key;
    this.counted = counted;
    this.weight = weight;
  }

  /** The name the command line gives this share. */
  public String key() {
    return key;
  }

  /** Reads a share's name as the command line spells it. */
  public static VariantShare named(String key) {
    return Arrays.stream(values())
        .filter(share -> share.key.equals(key))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(
            "--variant: unknown share '" + key + "'; known: " + keys()));
  }

  /** This share in {@code tasks}, 0 when they have nothing it is measured over. */
  public double of(List<TaskShape> tasks) {
    long all = tasks.stream().mapToLong(weight).sum();
    long part = tasks.stream().filter(counted).mapToLong(weight).sum();
    return all == 0 ? 0 : (double) part / all;
  }

  /** Every share of {@code tasks}, as "fractional 0.29, multi-gpu 0.07, ...". */
  public static String describe(List<TaskShape> tasks) {
    return Arrays.stream(values())
        .map(share -> String.format(Locale.ROOT, "%s %.2f", share.key, share.of(tasks)))
        .collect(Collectors.joining(", "));
  }

  private static String keys() {
    return Arrays.stream(values()).map(VariantShare::key).collect(Collectors.joining(", "));
  }
}
