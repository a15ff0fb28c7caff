package io.koord4j.manager.admission;

import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.queue.core.UnitSpec;
import io.koord4j.quota.ResourceVector;
import io.koord4j.quota.kube.QuotaBinding;
import io.koord4j.quota.kube.QuotaResolver;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Reads a QueueUnit as the core's {@link UnitSpec}. */
public final class UnitSpecs {
  private UnitSpecs() {}

  /**
   * {@code namespace/name}, as one shared String per unit: the informer, the loop, the core and the
   * status writer each key a map by it, and with 100,000 units copies of it were 8 of the 16
   * Strings a unit costs.
   */
  public static String id(QueueUnit unit) {
    return (unit.getMetadata().getNamespace() + "/" + unit.getMetadata().getName()).intern();
  }

  /**
   * The unit, charged to the leaf quota it resolves to ({@link QuotaResolver}), or waiting for it
   * when its namespace is not bound to that quota ({@link QuotaBinding}). A unit that names no
   * queue waits in the queue named like its quota.
   *
   * @param quotas every ElasticQuota, by name
   * @param queues every Queue, by {@link QueueKeys key}
   * @param succeededPods how many of the unit's pods succeeded (see {@link #charged})
   */
  public static UnitSpec from(
      QueueUnit unit, Map<String, ElasticQuota> quotas, Map<String, Queue> queues, int succeededPods) {
    QueueUnitSpec spec = unit.getSpec();
    String namespace = unit.getMetadata().getNamespace();
    String created = unit.getMetadata().getCreationTimestamp();
    String quota = QuotaResolver.resolve(unit, quotas);
    String queue = spec.getQueue() == null ? quota : spec.getQueue();
    return new UnitSpec(
        id(unit),
        QueueKeys.resolve(namespace, queue, queues, quotas),
        quota,
        spec.getPriority() == null ? 0 : spec.getPriority(),
        created == null ? Instant.EPOCH : Instant.parse(created),
        charged(unit, succeededPods),
        spec.getPodSet() == null ? 0 : spec.getPodSet().size(),
        ExpectedRuntimes.of(unit),
        QuotaBinding.refusal(unit.getMetadata(), namespace, quota, quotas).orElse(null));
  }

  /**
   * What the unit holds quota for: its whole request, less the share of each succeeded pod its job
   * will not replace ({@link WellKnown#SUCCEEDED_PODS_REPLACED}, on units of one pod set). Such a
   * pod's share is freed as soon as the pod is seen succeeded, not when the job controller counts
   * it or ends the job.
   */
  public static ResourceVector charged(QueueUnit unit, int succeededPods) {
    ResourceVector request = ResourceQuantities.toVector(unit.getSpec().getResource());
    List<PodSet> podSets = unit.getSpec().getPodSet();
    Integer replaced = replacedSuccesses(unit);
    if (replaced == null || podSets == null || podSets.size() != 1 || podSets.get(0).getCount() == null) {
      return request;
    }
    int count = podSets.get(0).getCount();
    int freed = Math.min(count, Math.max(0, succeededPods - replaced));
    return freed == 0 ? request : request.share(count - freed, count);
  }

  /** The unit's count of replaced successes; null when absent or not a whole number of at least 0. */
  private static Integer replacedSuccesses(QueueUnit unit) {
    Map<String, String> annotations = unit.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(WellKnown.SUCCEEDED_PODS_REPLACED);
    if (value == null) {
      return null;
    }
    try {
      int replaced = Integer.parseInt(value);
      return replaced < 0 ? null : replaced;
    } catch (NumberFormatException notANumber) {
      return null;
    }
  }
}
