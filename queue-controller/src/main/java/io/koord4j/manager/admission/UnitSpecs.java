package io.koord4j.manager.admission;

import io.koord4j.quota.kube.QuotaResolver;
import io.koord4j.api.queue.Queue;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.queue.core.UnitSpec;
import java.time.Instant;
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
   */
  public static UnitSpec from(QueueUnit unit, String quota, Map<String, Queue> queues) {
    QueueUnitSpec spec = unit.getSpec();
    String created = unit.getMetadata().getCreationTimestamp();
    String queue = spec.getQueue() == null ? quota : spec.getQueue();
    return new UnitSpec(
        id(unit),
        QueueKeys.resolve(unit.getMetadata().getNamespace(), queue, queues),
        quota,
        spec.getPriority() == null ? 0 : spec.getPriority(),
        created == null ? Instant.EPOCH : Instant.parse(created),
        ResourceQuantities.toVector(spec.getResource()),
        spec.getPodSet() == null ? 0 : spec.getPodSet().size(),
        ExpectedRuntimes.of(unit));
  }
}
