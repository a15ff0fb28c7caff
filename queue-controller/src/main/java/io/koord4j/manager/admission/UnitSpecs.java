package io.koord4j.manager.admission;

import io.koord4j.quota.kube.QuotaResolver;
import io.koord4j.api.WellKnown;
import io.koord4j.api.kueue.PodSet;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.queue.core.UnitSpec;
import io.koord4j.quota.ResourceVector;
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
   * @param quota the leaf quota the unit resolves to (see {@link QuotaResolver}); a unit that names
   *     no queue waits in the queue named like it
   * @param queues every Queue, by {@link QueueKeys key}
   * @param succeededPods how many of the unit's pods succeeded (see {@link #charged})
   */
  public static UnitSpec from(QueueUnit unit, String quota, Map<String, Queue> queues, int succeededPods) {
    QueueUnitSpec spec = unit.getSpec();
    String created = unit.getMetadata().getCreationTimestamp();
    String queue = spec.getQueue() == null ? quota : spec.getQueue();
    return new UnitSpec(
        id(unit),
        QueueKeys.resolve(unit.getMetadata().getNamespace(), queue, queues),
        quota,
        spec.getPriority() == null ? 0 : spec.getPriority(),
        created == null ? Instant.EPOCH : Instant.parse(created),
        charged(unit, succeededPods),
        spec.getPodSet() == null ? 0 : spec.getPodSet().size(),
        ExpectedRuntimes.of(unit));
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
