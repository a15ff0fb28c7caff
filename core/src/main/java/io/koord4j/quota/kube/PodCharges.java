package io.koord4j.quota.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.queue.core.ChargedPod;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What a pod is charged to its quota outside any queued unit. Every live pod is charged to the
 * quota it names or defaults to, as Koordinator charges them, except the pods of a queued job:
 * those carry {@code koord-queue/related-queueunit} and their unit holds their quota already. Once
 * that unit is gone (deleted while no manager saw its pods stop), its pods are charged again, to
 * the quota the unit was admitted to ({@link WellKnown#UNIT_QUOTA}).
 */
public final class PodCharges {
  private PodCharges() {}

  /**
   * @param quotas every ElasticQuota, by name
   * @param unitKnown whether a unit, by {@code <namespace>/<name>}, still holds its pods' quota
   */
  public static Optional<ChargedPod> of(Pod pod, Map<String, ElasticQuota> quotas, Predicate<String> unitKnown) {
    String unit = unitOf(pod);
    if (isOver(pod) || unit != null && unitKnown.test(unit)) {
      return Optional.empty();
    }
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    String unitQuota = unit == null ? null : pod.getMetadata().getAnnotations().get(WellKnown.UNIT_QUOTA);
    try {
      return Optional.of(
          new ChargedPod(
              unitQuota != null ? unitQuota : QuotaResolver.resolve(pod, quotas),
              ResourceQuantities.requestOf(pod),
              node != null && !node.isEmpty()));
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // a request the API server would not have stored; nothing to charge
    }
  }

  private static boolean isOver(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /** The unit that holds the pod's quota, {@code <namespace>/<name>}, or null for none. */
  public static String unitOf(Pod pod) {
    return WellKnown.readQueueKey(pod.getMetadata().getAnnotations(), WellKnown.RELATED_QUEUEUNIT);
  }
}
