package io.koord4j.quota.kube;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.koord4j.api.WellKnown;
import io.koord4j.api.queue.QueueUnit;
import io.koord4j.api.quota.ElasticQuota;
import java.util.Map;
import java.util.Optional;

/**
 * Which leaf quota a unit uses, Koordinator's way: the quota named by the unit's {@code
 * quota.scheduling.koordinator.sh/name} label; else the quota named like its queue (every quota has
 * a queue of its name); else one named like its namespace; else the first leaf, by name, that lives
 * in the namespace or whose namespaces annotation lists it; else {@code koordinator-default-quota}.
 * Whether the unit may charge the quota it names is {@link QuotaBinding}'s to say.
 */
public final class QuotaResolver {
  private QuotaResolver() {}

  /**
   * Whether two versions of a quota read the same to admission: the same spec and bound
   * namespaces. The figures the manager itself publishes (runtime, request, status) do not count,
   * so its own writes never rebuild the tree.
   */
  public static boolean sameForAdmission(ElasticQuota before, ElasticQuota after) {
    return ElasticQuotaSpecs.from(before).equals(ElasticQuotaSpecs.from(after))
        && ElasticQuotaSpecs.boundNamespaces(before).equals(ElasticQuotaSpecs.boundNamespaces(after));
  }

  /** @param quotas every ElasticQuota, by name */
  public static String resolve(QueueUnit unit, Map<String, ElasticQuota> quotas) {
    return resolve(unit.getMetadata(), unit.getSpec().getQueue(), quotas);
  }

  /** A pod's quota: as a unit's, without the queue step. */
  public static String resolve(Pod pod, Map<String, ElasticQuota> quotas) {
    return resolve(pod.getMetadata(), null, quotas);
  }

  /** The quota the object's {@code quota.scheduling.koordinator.sh/name} label names, if any. */
  public static Optional<String> labelled(ObjectMeta metadata) {
    Map<String, String> labels = metadata == null ? null : metadata.getLabels();
    String labelled = labels == null ? null : labels.get(WellKnown.QUOTA_NAME);
    return labelled == null || labelled.isBlank() ? Optional.empty() : Optional.of(labelled.strip());
  }

  private static String resolve(ObjectMeta metadata, String queue, Map<String, ElasticQuota> quotas) {
    Optional<String> labelled = labelled(metadata);
    if (labelled.isPresent()) {
      return labelled.get();
    }
    if (queue != null && quotas.containsKey(queue)) {
      return queue;
    }
    String namespace = metadata.getNamespace();
    if (quotas.containsKey(namespace)) {
      return namespace;
    }
    return QuotaBinding.firstServing(namespace, quotas).orElse(WellKnown.DEFAULT_QUOTA);
  }
}
