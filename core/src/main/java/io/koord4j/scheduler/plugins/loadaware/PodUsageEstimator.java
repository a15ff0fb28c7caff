package io.koord4j.scheduler.plugins.loadaware;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.ResourceVector;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a pod that no NodeMetric has measured yet is expected to use: a share of its request (or
 * of its limit when that is higher), never more than its limit. A pod that requests nothing of a
 * resource is still expected to use a little of it, as Koordinator assumes: 250m CPU, 200 MiB.
 */
public final class PodUsageEstimator {

  static final long DEFAULT_MILLI_CPU = 250;
  static final long DEFAULT_MEMORY_BYTES = 200L * 1024 * 1024;

  private final Map<String, Long> scalingFactors;

  public PodUsageEstimator(Map<String, Long> scalingFactors) {
    this.scalingFactors = Map.copyOf(scalingFactors);
  }

  /** Expected use per scaled resource, in base units (milli-CPU, bytes). */
  public ResourceVector estimate(Pod pod) {
    ResourceVector requests = ResourceQuantities.requestOf(pod);
    ResourceVector limits = limitsOf(pod);
    Map<String, Long> estimate = new TreeMap<>();
    scalingFactors.forEach(
        (resource, factor) ->
            estimate.put(resource, estimate(resource, requests.get(resource), limits.get(resource), factor)));
    return ResourceVector.of(estimate);
  }

  private static long estimate(String resource, long request, long limit, long factor) {
    long amount = Math.max(request, limit);
    if (amount == 0) {
      return defaultUse(resource);
    }
    long scaled = Math.round(amount * (double) factor / 100);
    return limit > 0 ? Math.min(scaled, limit) : scaled;
  }

  private static long defaultUse(String resource) {
    return switch (resource) {
      case ResourceQuantities.CPU -> DEFAULT_MILLI_CPU;
      case ResourceQuantities.MEMORY -> DEFAULT_MEMORY_BYTES;
      default -> 0;
    };
  }

  /** The sum of the app containers' limits; a container without a limit adds nothing. */
  private static ResourceVector limitsOf(Pod pod) {
    ResourceVector sum = ResourceVector.EMPTY;
    for (Container container : pod.getSpec().getContainers()) {
      if (container.getResources() != null) {
        sum = sum.add(ResourceQuantities.toVector(container.getResources().getLimits()));
      }
    }
    return sum;
  }
}
