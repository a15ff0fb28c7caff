package io.koord4j.koordlet.qos;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.koordlet.cgroup.CgroupFormats;
import java.util.List;
import java.util.Map;

/**
 * The cgroup values of a BE pod from its {@code kubernetes.io/batch-cpu} (milli-cores) and {@code
 * kubernetes.io/batch-memory} (bytes), which the kubelet does not translate itself, as
 * Koordinator's batch-resource hook does; no I/O.
 *
 * @param cpuShares request · 1024 / 1000, at least 2
 * @param cfsQuotaUs limit · period / 1000, at least 1000; -1 when any container has no limit
 * @param memoryLimitBytes the limit; -1 when any container has no limit
 */
public record BatchCgroupSettings(long cpuShares, long cfsQuotaUs, long memoryLimitBytes) {
  static final long MIN_SHARES = 2;
  static final long MIN_QUOTA_US = 1_000;

  /** The pod-level values: requests summed, limits summed unless one container is unlimited. */
  public static BatchCgroupSettings ofPod(Pod pod) {
    List<Container> containers = pod.getSpec().getContainers();
    long cpuRequest = 0;
    long cpuLimit = 0;
    long memoryLimit = 0;
    for (Container container : containers) {
      cpuRequest += Math.max(0, amount(container, true, WellKnown.BATCH_CPU));
      cpuLimit = sumLimited(cpuLimit, amount(container, false, WellKnown.BATCH_CPU));
      memoryLimit = sumLimited(memoryLimit, amount(container, false, WellKnown.BATCH_MEMORY));
    }
    return of(cpuRequest, cpuLimit, memoryLimit);
  }

  public static BatchCgroupSettings ofContainer(Container container) {
    return of(
        Math.max(0, amount(container, true, WellKnown.BATCH_CPU)),
        amount(container, false, WellKnown.BATCH_CPU),
        amount(container, false, WellKnown.BATCH_MEMORY));
  }

  /** Whether the pod asks for batch resources at all (otherwise its cgroups are left alone). */
  public static boolean requestsBatch(Pod pod) {
    return pod.getSpec().getContainers().stream()
        .anyMatch(c -> amount(c, true, WellKnown.BATCH_CPU) > 0 || amount(c, false, WellKnown.BATCH_CPU) > 0
            || amount(c, true, WellKnown.BATCH_MEMORY) > 0 || amount(c, false, WellKnown.BATCH_MEMORY) > 0);
  }

  private static BatchCgroupSettings of(long cpuRequestMilli, long cpuLimitMilli, long memoryLimit) {
    long shares = Math.max(MIN_SHARES, cpuRequestMilli * 1024 / 1000);
    long quota =
        cpuLimitMilli <= 0
            ? CgroupFormats.UNLIMITED_QUOTA
            : Math.max(MIN_QUOTA_US, cpuLimitMilli * CgroupFormats.DEFAULT_CFS_PERIOD_US / 1000);
    return new BatchCgroupSettings(shares, quota, memoryLimit <= 0 ? -1 : memoryLimit);
  }

  /** -1 marks "unlimited" and stays so once any container is. */
  private static long sumLimited(long sum, long value) {
    return sum < 0 || value <= 0 ? -1 : sum + value;
  }

  /** The amount of a resource, -1 when not set. */
  private static long amount(Container container, boolean request, String resource) {
    if (container.getResources() == null) {
      return -1;
    }
    Map<String, Quantity> values =
        request ? container.getResources().getRequests() : container.getResources().getLimits();
    Quantity quantity = values == null ? null : values.get(resource);
    if (quantity == null) {
      return -1;
    }
    try {
      return Quantity.getAmountInBytes(quantity).longValueExact();
    } catch (ArithmeticException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "container " + container.getName() + ": resources." + (request ? "requests" : "limits") + "[" + resource
              + "] must be a whole number, not \"" + quantity + "\"", e);
    }
  }
}
