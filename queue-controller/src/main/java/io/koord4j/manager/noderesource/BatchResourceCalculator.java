package io.koord4j.manager.noderesource;

import io.koord4j.api.WellKnown;
import io.koord4j.colocation.PriorityClass;
import io.koord4j.colocation.QosClass;
import io.koord4j.colocation.ThirdPartyAllocations;
import io.koord4j.quota.ResourceVector;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Koordinator's batch resources of one node; no I/O.
 *
 * <pre>
 * batch = max(capacity − safetyMargin − max(system used, system reserved) − high-priority pods, 0)
 * safetyMargin = capacity · (100 − reclaimThresholdPercent) / 100
 * </pre>
 *
 * High-priority pods are the running and pending pods that are not koord-batch or koord-free;
 * each counts with its measured usage (policy {@code usage}), its request ({@code request}, memory
 * only, where system used is left out) or the larger of the two ({@code maxUsageRequest}). A pod
 * not yet measured counts with its request, an LSE pod with its CPU request, and a measured pod
 * no longer listed with its usage unless the metric says it was low priority.
 */
public final class BatchResourceCalculator {
  private BatchResourceCalculator() {}

  /** A pod on the node as the calculation needs it; {@code key} is namespace/name. */
  public record PodInfo(String key, PriorityClass priority, QosClass qos, boolean active, CpuMemory request) {}

  /** A pod's usage from NodeMetric's {@code podsMetric}, with the priority written there. */
  public record PodUsage(String key, String priority, CpuMemory usage) {}

  /** The node's figures; reserved is the larger of the kubelet's and the node annotation's. */
  public record NodeFigures(CpuMemory capacity, CpuMemory reserved, CpuMemory systemUsed) {}

  /** The result, with how it was reached. */
  public record BatchResources(CpuMemory amount, String cpuMessage, String memoryMessage) {}

  /**
   * What third parties use of the node's batch resources, from the {@code koord-batch} entries of its
   * thirdPartyAllocations. The room they reserve beyond that is not counted: it stays in the node's
   * allocatable, and koord-scheduler keeps batch pods out of it.
   *
   * @throws IllegalArgumentException when the annotation cannot be read
   */
  public static CpuMemory thirdPartyUse(String nodeName, Map<String, String> annotations) {
    ResourceVector used = ThirdPartyAllocations.of(nodeName, annotations).used();
    return new CpuMemory(used.get(WellKnown.BATCH_CPU), used.get(WellKnown.BATCH_MEMORY));
  }

  public static BatchResources calculate(
      ColocationStrategy strategy, NodeFigures node, List<PodInfo> pods, List<PodUsage> podUsages) {
    Map<String, PodUsage> unlisted = new HashMap<>();
    podUsages.forEach(usage -> unlisted.put(usage.key(), usage));
    CpuMemory hpRequest = CpuMemory.ZERO;
    CpuMemory hpUsed = CpuMemory.ZERO;
    CpuMemory hpMaxUsedRequest = CpuMemory.ZERO;
    for (PodInfo pod : pods) {
      PodUsage metric = unlisted.remove(pod.key());
      if (!pod.active() || pod.priority().isLowPriority()) {
        continue;
      }
      hpRequest = hpRequest.plus(pod.request());
      if (metric == null) {
        hpUsed = hpUsed.plus(pod.request());
        hpMaxUsedRequest = hpMaxUsedRequest.plus(pod.request());
      } else {
        CpuMemory used =
            pod.qos() == QosClass.LSE
                ? new CpuMemory(pod.request().cpuMilli(), metric.usage().memoryBytes())
                : metric.usage();
        hpUsed = hpUsed.plus(used);
        hpMaxUsedRequest = hpMaxUsedRequest.plus(metric.usage().max(pod.request()));
      }
    }
    for (PodUsage dangling : unlisted.values()) {
      PriorityClass priority = PriorityClass.fromValue(dangling.priority());
      if (priority == null || !priority.isLowPriority()) {
        hpUsed = hpUsed.plus(dangling.usage());
        hpMaxUsedRequest = hpMaxUsedRequest.plus(dangling.usage());
      }
    }
    CpuMemory margin =
        node.capacity().percent(100 - strategy.cpuReclaimThresholdPercent(), 100 - strategy.memoryReclaimThresholdPercent());
    CpuMemory systemUsed = node.systemUsed().max(node.reserved());
    CpuMemory base = node.capacity().minus(margin);
    CpuMemory byUsage = base.minus(systemUsed).minus(hpUsed).atLeastZero();
    CpuMemory byRequest = base.minus(node.reserved()).minus(hpRequest).atLeastZero();
    CpuMemory byMaxUsageRequest = base.minus(systemUsed).minus(hpMaxUsedRequest).atLeastZero();

    boolean cpuMax = strategy.cpuCalculatePolicy() == CalculatePolicy.MAX_USAGE_REQUEST;
    long cpu = cpuMax ? byMaxUsageRequest.cpuMilli() : byUsage.cpuMilli();
    String cpuMessage = String.format(
        "batch cpu %dm = capacity %dm - safety margin %dm - max(system used, reserved) %dm - high-priority %s %dm",
        cpu, node.capacity().cpuMilli(), margin.cpuMilli(), systemUsed.cpuMilli(),
        cpuMax ? "max(used, request)" : "used", (cpuMax ? hpMaxUsedRequest : hpUsed).cpuMilli());
    long memory;
    String memoryMessage;
    switch (strategy.memoryCalculatePolicy()) {
      case REQUEST -> {
        memory = byRequest.memoryBytes();
        memoryMessage = memoryMessage(memory, node, margin, "reserved", node.reserved(), "request", hpRequest);
      }
      case MAX_USAGE_REQUEST -> {
        memory = byMaxUsageRequest.memoryBytes();
        memoryMessage = memoryMessage(memory, node, margin, "max(system used, reserved)", systemUsed,
            "max(used, request)", hpMaxUsedRequest);
      }
      default -> {
        memory = byUsage.memoryBytes();
        memoryMessage = memoryMessage(memory, node, margin, "max(system used, reserved)", systemUsed, "used", hpUsed);
      }
    }
    return new BatchResources(new CpuMemory(cpu, memory), cpuMessage, memoryMessage);
  }

  private static String memoryMessage(
      long memory, NodeFigures node, CpuMemory margin, String systemName, CpuMemory system, String hpName, CpuMemory hp) {
    return String.format(
        "batch memory %d = capacity %d - safety margin %d - %s %d - high-priority %s %d",
        memory, node.capacity().memoryBytes(), margin.memoryBytes(), systemName, system.memoryBytes(), hpName,
        hp.memoryBytes());
  }
}
