package io.koord4j.manager.admission;

import io.koord4j.quota.kube.QuotaResolver;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.queue.QueueUnitSpec;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.queue.core.UnitSpec;
import java.time.Instant;

/** Reads a QueueUnit as the core's {@link UnitSpec}. */
public final class UnitSpecs {
  private UnitSpecs() {}

  public static String id(QueueUnit unit) {
    return unit.getMetadata().getNamespace() + "/" + unit.getMetadata().getName();
  }

  /** @param quota the leaf quota the unit resolves to (see {@link QuotaResolver}) */
  public static UnitSpec from(QueueUnit unit, String quota) {
    QueueUnitSpec spec = unit.getSpec();
    String created = unit.getMetadata().getCreationTimestamp();
    return new UnitSpec(
        id(unit),
        spec.getQueue() == null ? quota : spec.getQueue(),
        quota,
        spec.getPriority() == null ? 0 : spec.getPriority(),
        created == null ? Instant.EPOCH : Instant.parse(created),
        ResourceQuantities.toVector(spec.getResource()),
        spec.getPodSet() == null ? 0 : spec.getPodSet().size());
  }
}
