package io.koord4j.scheduler.framework;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.jobs.PodRequests;
import io.koord4j.jobs.ResourceAmounts;
import io.koord4j.quota.ResourceVector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kubernetes quantities as whole base units: milli-CPU for {@code cpu}, bytes or counts for the
 * rest. Fractions round up, so a pod is never charged less than it asked for.
 */
public final class Resources {
  private Resources() {}

  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";
  public static final String PODS = "pods";

  /** The effective request of a pod (init containers, sidecars and overhead included). */
  public static ResourceVector requestOf(Pod pod) {
    return ofAmounts(PodRequests.of(pod.getSpec(), "spec"));
  }

  public static ResourceVector of(Map<String, Quantity> quantities) {
    Map<String, BigDecimal> amounts = new TreeMap<>();
    if (quantities != null) {
      quantities.forEach((name, q) -> amounts.put(name, ResourceAmounts.parse(q, name)));
    }
    return ofAmounts(amounts);
  }

  private static ResourceVector ofAmounts(Map<String, BigDecimal> amounts) {
    Map<String, Long> units = new TreeMap<>();
    amounts.forEach(
        (name, amount) -> {
          BigDecimal scaled = CPU.equals(name) ? amount.movePointRight(3) : amount;
          units.put(name, scaled.setScale(0, RoundingMode.CEILING).longValueExact());
        });
    return ResourceVector.of(units);
  }
}
