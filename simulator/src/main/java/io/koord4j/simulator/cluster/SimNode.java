package io.koord4j.simulator.cluster;

import io.koord4j.device.GpuAllocation;
import io.koord4j.device.GpuAllocator;
import io.koord4j.device.GpuFragmentation;
import io.koord4j.device.GpuRequest;
import io.koord4j.device.NodeGpuInventory;
import io.koord4j.device.NodeGpuUsage;
import io.koord4j.simulator.trace.NodeSpec;
import io.koord4j.simulator.trace.TaskShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/** One node of the simulated cluster at one moment: immutable, binding a task gives a new node. */
public final class SimNode {

  /**
   * What the node's tasks hold; two nodes of one shape holding the same place alike.
   *
   * @param hostedGpuMilli the GPU demand of each GPU task on the node, in thousandths, ascending
   */
  public record Held(NodeGpuUsage gpus, long milliCpuUsed, long memoryMibUsed, List<Integer> hostedGpuMilli) {
    static final Held NOTHING = new Held(NodeGpuUsage.NONE, 0, 0, List.of());

    /** With the task bound (sign 1) or gone (sign -1) on these GPUs (null for none). */
    Held change(TaskShape task, GpuAllocation allocation, int sign) {
      List<Integer> hosted = new ArrayList<>(hostedGpuMilli);
      if (task.gpuCount() > 0) {
        if (sign > 0) {
          hosted.add((int) task.gpuDemandMilli());
          Collections.sort(hosted);
        } else {
          hosted.remove(Integer.valueOf((int) task.gpuDemandMilli()));
        }
      }
      NodeGpuUsage usage =
          allocation == null ? gpus : sign > 0 ? gpus.reserve(allocation) : gpus.release(allocation);
      return new Held(
          usage,
          milliCpuUsed + sign * task.milliCpu(),
          memoryMibUsed + sign * task.memoryMib(),
          List.copyOf(hosted));
    }
  }

  private final int index;
  private final NodeSpec spec;
  private final NodeGpuInventory inventory;
  private final GpuChoices choices;
  private final Held held;
  private final GpuFragmentation.FreeCapacity free;
  private final int freeWholeGpus;
  private final int mostFreeGpuPercent;

  /** @param choices the allocator's choices shared by the nodes of this node's shape */
  SimNode(int index, NodeSpec spec, GpuChoices choices, NodeGpuInventory inventory, Held held) {
    this.index = index;
    this.spec = spec;
    this.choices = choices;
    this.inventory = inventory;
    this.held = held;
    this.free =
        GpuFragmentation.FreeCapacity.of(inventory, held.gpus(), freeMilliCpu(), freeMemoryMib() << 20);
    this.freeWholeGpus = (int) Arrays.stream(free.gpuPercent()).filter(p -> p == 100).count();
    this.mostFreeGpuPercent = Arrays.stream(free.gpuPercent()).max().orElse(0);
  }

  public int index() {
    return index;
  }

  public NodeSpec spec() {
    return spec;
  }

  public long freeMilliCpu() {
    return spec.milliCpu() - held.milliCpuUsed();
  }

  public long freeMemoryMib() {
    return spec.memoryMib() - held.memoryMibUsed();
  }

  public NodeGpuInventory inventory() {
    return inventory;
  }

  public Held held() {
    return held;
  }

  /** The GPUs' usage, which most placement policies score. */
  public NodeGpuUsage gpus() {
    return held.gpus();
  }

  /** Whether CPU, memory and GPU model allow the task, before looking at the GPUs. */
  public boolean admitsOutsideGpus(TaskShape task) {
    return task.milliCpu() <= freeMilliCpu()
        && task.memoryMib() <= freeMemoryMib()
        && (task.gpuCount() == 0 || (hasGpuRoomFor(task) && task.accepts(spec.model())));
  }

  /** A quick look at the free GPUs, so that the allocator runs only where it may succeed. */
  private boolean hasGpuRoomFor(TaskShape task) {
    return task.isGpuShare()
        ? mostFreeGpuPercent >= sharePercent(task)
        : freeWholeGpus >= task.gpuCount();
  }

  /**
   * The GPU placements the task could get here (see {@link GpuAllocator#candidates}); for a task
   * without GPUs a single null. Empty when the task does not fit.
   */
  public List<GpuAllocation> candidates(TaskShape task) {
    return placements(task, request -> GpuAllocator.candidates(inventory, held.gpus(), request));
  }

  /**
   * The one placement the core's allocator makes here (the fullest GPU with room for a share), as
   * a list of at most one; for a task without GPUs a single null.
   */
  public List<GpuAllocation> allocatorChoice(TaskShape task) {
    return placements(task, request -> choices.of(inventory, held.gpus(), request));
  }

  /** None when the task does not fit, a single null for a task without GPUs, else what {@code gpus} finds. */
  private List<GpuAllocation> placements(TaskShape task, Function<GpuRequest, List<GpuAllocation>> gpus) {
    if (!admitsOutsideGpus(task)) {
      return List.of();
    }
    if (task.gpuCount() == 0) {
      return Collections.singletonList(null);
    }
    return gpus.apply(gpuRequest(task));
  }

  /** The GPU thousandths the node's tasks hold. */
  public long gpuUsedMilli() {
    return held.hostedGpuMilli().stream().mapToLong(Integer::longValue).sum();
  }

  /** The node after binding the task with these GPUs (null for none). */
  public SimNode with(TaskShape task, GpuAllocation allocation) {
    return new SimNode(index, spec, choices, inventory, held.change(task, allocation, 1));
  }

  public SimNode without(TaskShape task, GpuAllocation allocation) {
    return new SimNode(index, spec, choices, inventory, held.change(task, allocation, -1));
  }

  /** What is free here, as the fragmentation measure reads it. */
  public GpuFragmentation.FreeCapacity freeCapacity() {
    return free;
  }

  /**
   * The task's GPUs as a pod would ask for them: {@code nvidia.com/gpu} for whole GPUs, {@code
   * koordinator.sh/gpu-core} and {@code gpu-memory-ratio} in whole percent (rounded up) for a
   * share.
   */
  public static GpuRequest gpuRequest(TaskShape task) {
    return task.isGpuShare()
        ? GpuRequest.share(sharePercent(task), sharePercent(task))
        : GpuRequest.wholeGpus(task.gpuCount());
  }

  public static int sharePercent(TaskShape task) {
    return (task.gpuMilli() + 9) / 10;
  }
}
