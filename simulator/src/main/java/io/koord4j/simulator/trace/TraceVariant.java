package io.koord4j.simulator.trace;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A variant of a task trace with other {@link VariantShare shares} of fractional-GPU, multi-GPU,
 * model-bound and CPU-only tasks, as Alibaba publishes variants of its GPU trace. The variant has
 * as many tasks as the trace, each a copy of a trace task of the kind drawn for it, so task shapes
 * stay those of the trace. A CPU-only or model share not given stays as in the trace; the GPU
 * demand that the fractional and multi-GPU targets leave goes to the other GPU tasks (whole single
 * GPUs, and the kind without a target) in the proportions they have in the trace.
 *
 * @param targets each share's target fraction, from 0 to 1
 */
public record TraceVariant(Map<VariantShare, Double> targets) {
  // A variant's draws must not repeat the workload inflation's draws, which start from the same seed.
  private static final long DRAWS_OF_VARIANTS = 0x7A91_3C55_E0D2_B64FL;
  private static final List<Kind> GPU_KINDS = List.of(Kind.FRACTIONAL, Kind.WHOLE_GPU, Kind.MULTI_GPU);

  /** The kinds of task a variant draws, each from the trace's tasks of that kind. */
  private enum Kind {
    CPU_ONLY, FRACTIONAL, WHOLE_GPU, MULTI_GPU;

    static Kind of(TaskShape task) {
      if (task.gpuCount() == 0) {
        return CPU_ONLY;
      }
      return task.isGpuShare() ? FRACTIONAL : task.gpuCount() == 1 ? WHOLE_GPU : MULTI_GPU;
    }

    String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  public TraceVariant {
    targets = Map.copyOf(targets);
  }

  /** Reads the command line's {@code share=fraction,...}, such as {@code fractional=0.5,model=0.33}. */
  public static TraceVariant parse(String spec) {
    Map<VariantShare, Double> targets = new EnumMap<>(VariantShare.class);
    for (String item : spec.split(",")) {
      String[] keyAndValue = item.split("=", 2);
      if (keyAndValue.length != 2) {
        throw new IllegalArgumentException(
            "--variant: '" + item.trim() + "' is not share=fraction, such as fractional=0.5");
      }
      VariantShare share = VariantShare.named(keyAndValue[0].trim());
      if (targets.put(share, fraction(share, keyAndValue[1].trim())) != null) {
        throw new IllegalArgumentException("--variant: " + share.key() + " is given twice");
      }
    }
    return new TraceVariant(targets);
  }

  private static double fraction(VariantShare share, String text) {
    try {
      double value = Double.parseDouble(text);
      if (value >= 0 && value <= 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // Reported below with the rule.
    }
    throw new IllegalArgumentException(
        "--variant: " + share.key() + " '" + text + "' must be a fraction from 0 to 1");
  }

  /**
   * Draws the variant's tasks from {@code trace}; the same trace, nodes and seed give the same
   * tasks. A task bound to a model is bound to one model of the nodes that can host it, drawn in
   * proportion to their GPUs.
   */
  public List<TaskShape> generate(List<TaskShape> trace, List<NodeSpec> nodes, long seed) {
    SplittableRandom random = new SplittableRandom(seed ^ DRAWS_OF_VARIANTS);
    Map<Kind, List<TaskShape>> pools = pools(trace);
    Map<Kind, Double> chances = chances(trace, pools);
    List<TaskShape> variant = new ArrayList<>(trace.size());
    for (int i = 0; i < trace.size(); i++) {
      List<TaskShape> pool = pools.get(draw(chances, random));
      variant.add(applyModelShare(pool.get(random.nextInt(pool.size())), nodes, random));
    }
    return variant;
  }

  private static Map<Kind, List<TaskShape>> pools(List<TaskShape> trace) {
    Map<Kind, List<TaskShape>> pools = new EnumMap<>(Kind.class);
    for (Kind kind : Kind.values()) {
      pools.put(kind, new ArrayList<>());
    }
    trace.forEach(task -> pools.get(Kind.of(task)).add(task));
    return pools;
  }

  /**
   * The chance that a task of the variant is of each kind. CPU-only tasks are a share of the count;
   * the GPU kinds are shares of the GPU demand, so each kind's count goes as its demand share over
   * its tasks' mean demand.
   */
  private Map<Kind, Double> chances(List<TaskShape> trace, Map<Kind, List<TaskShape>> pools) {
    double cpuOnly = targetOf(VariantShare.CPU_ONLY).orElseGet(() -> VariantShare.CPU_ONLY.of(trace));
    if (cpuOnly > 0 && pools.get(Kind.CPU_ONLY).isEmpty()) {
      throw nothingToDraw(Kind.CPU_ONLY);
    }
    Map<Kind, Double> gpuWeights = new EnumMap<>(Kind.class);
    demandShares(pools).forEach(
        (kind, share) -> gpuWeights.put(kind, share == 0 ? 0 : share / meanDemand(kind, pools)));
    double gpuWeight = gpuWeights.values().stream().mapToDouble(Double::doubleValue).sum();
    Map<Kind, Double> chances = new EnumMap<>(Kind.class);
    chances.put(Kind.CPU_ONLY, cpuOnly);
    gpuWeights.forEach((kind, weight) -> chances.put(kind, (1 - cpuOnly) * weight / gpuWeight));
    return chances;
  }

  /**
   * Each GPU kind's share of the GPU demand: the target where one is given; the kinds without one
   * share what the targets leave in the proportions they have in the trace.
   */
  private Map<Kind, Double> demandShares(Map<Kind, List<TaskShape>> pools) {
    Map<Kind, Double> shares = new EnumMap<>(Kind.class);
    targetOf(VariantShare.FRACTIONAL).ifPresent(share -> shares.put(Kind.FRACTIONAL, share));
    targetOf(VariantShare.MULTI_GPU).ifPresent(share -> shares.put(Kind.MULTI_GPU, share));
    double left = 1 - shares.values().stream().mapToDouble(Double::doubleValue).sum();
    // Targets that add up to exactly 1 may leave a hair below 0 in floating point.
    if (left < -1e-9) {
      throw new IllegalArgumentException("--variant: fractional and multi-gpu add up to more than 1");
    }
    List<Kind> rest = GPU_KINDS.stream().filter(kind -> !shares.containsKey(kind)).toList();
    long restDemand = rest.stream().mapToLong(kind -> gpuDemand(pools.get(kind))).sum();
    if (left > 1e-9 && restDemand == 0) {
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "--variant: %.2f of the GPU demand is left to %s tasks, and the trace has none", left,
          rest.stream().map(Kind::label).collect(Collectors.joining(" and "))));
    }
    rest.forEach(
        kind -> shares.put(kind, restDemand == 0 ? 0 : left * gpuDemand(pools.get(kind)) / restDemand));
    return shares;
  }

  private static long gpuDemand(List<TaskShape> tasks) {
    return tasks.stream().mapToLong(TaskShape::gpuDemandMilli).sum();
  }

  private Optional<Double> targetOf(VariantShare share) {
    return Optional.ofNullable(targets.get(share));
  }

  private static double meanDemand(Kind kind, Map<Kind, List<TaskShape>> pools) {
    return pools.get(kind).stream()
        .mapToLong(TaskShape::gpuDemandMilli)
        .average()
        .orElseThrow(() -> nothingToDraw(kind));
  }

  private static IllegalArgumentException nothingToDraw(Kind kind) {
    return new IllegalArgumentException("--variant: the trace has no " + kind.label() + " task to draw from");
  }

  private static Kind draw(Map<Kind, Double> chances, SplittableRandom random) {
    double left = random.nextDouble();
    Kind last = null;
    for (Map.Entry<Kind, Double> chance : chances.entrySet()) {
      if (chance.getValue() > 0) {
        last = chance.getKey();
        left -= chance.getValue();
        if (left < 0) {
          return last;
        }
      }
    }
    // Chances that add up to a hair under 1 leave the rest to the last kind that has any.
    return last;
  }

  /** The task bound to a model or to none, as the model share draws; unchanged when it is not set. */
  private TaskShape applyModelShare(TaskShape task, List<NodeSpec> nodes, SplittableRandom random) {
    Optional<Double> modelShare = targetOf(VariantShare.MODEL);
    if (modelShare.isEmpty() || task.gpuCount() == 0) {
      return task;
    }
    boolean bind = random.nextDouble() < modelShare.get();
    return task.withModels(bind ? model(task, nodes, random) : Set.of());
  }

  /** One model of the nodes that can host the task, in proportion to their GPUs; none if no node can. */
  private static Set<String> model(TaskShape task, List<NodeSpec> nodes, SplittableRandom random) {
    // Sorted by model, so that a seed draws the same model whatever the nodes' order.
    Map<String, Long> gpusByModel = new TreeMap<>();
    long gpus = 0;
    for (NodeSpec node : nodes) {
      if (node.model() != null && hosts(node, task)) {
        gpusByModel.merge(node.model(), (long) node.gpus(), Long::sum);
        gpus += node.gpus();
      }
    }
    long left = gpus == 0 ? 0 : random.nextLong(gpus);
    for (Map.Entry<String, Long> model : gpusByModel.entrySet()) {
      left -= model.getValue();
      if (left < 0) {
        return Set.of(model.getKey());
      }
    }
    return Set.of();
  }

  private static boolean hosts(NodeSpec node, TaskShape task) {
    return node.gpus() >= task.gpuCount()
        && node.milliCpu() >= task.milliCpu()
        && node.memoryMib() >= task.memoryMib();
  }
}
