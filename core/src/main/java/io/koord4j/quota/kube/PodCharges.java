package io.koord4j.quota.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.queue.core.ChargedPod;
import java.util.Map;
import java.util.Optional;

/**
 * What a pod is charged to its quota outside any queued unit. Every live pod is charged to the
 * quota it names or defaults to, as Koordinator charges them, except the pods of a queued job:
 * those carry {@code koord-queue/related-queueunit} and their unit holds their quota already.
 */
public final class PodCharges {
  private PodCharges() {}

  /** @param quotas every ElasticQuota, by name */
  public static Optional<ChargedPod> of(Pod pod, Map<String, ElasticQuota> quotas) {
    if (isOver(pod) || ownedByUnit(pod)) {
      return Optional.empty();
    }
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    try {
      return Optional.of(
          new ChargedPod(
              QuotaResolver.resolve(pod, quotas),
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

  private static boolean ownedByUnit(Pod pod) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    return WellKnown.readQueueKey(annotations, WellKnown.RELATED_QUEUEUNIT) != null;
  }
}
