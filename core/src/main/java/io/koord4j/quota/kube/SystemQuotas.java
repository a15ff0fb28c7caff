package io.koord4j.quota.kube;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The quotas Koordinator keeps in every cluster, as it writes them: the root (a parent that does
 * not lend), the system quota and the default quota, which charges work that names no quota.
 * The system and default quotas are unlimited (Koordinator's default max, 2^63/5 of CPU cores
 * and of memory bytes) and carry that max as their runtime.
 */
public final class SystemQuotas {
  private SystemQuotas() {}

  /** Koordinator's default {@code quotaGroupNamespace}. */
  public static final String NAMESPACE = "koordinator-system";

  /** Koordinator's default max of an unlimited quota, as a quantity of any resource. */
  public static final String UNLIMITED = Long.toString(Long.MAX_VALUE / 5);
  private static final String UNLIMITED_JSON =
      "{\"cpu\":\"" + UNLIMITED + "\",\"memory\":\"" + UNLIMITED + "\"}";

  /** The three quotas, root first, each as it is created. */
  public static List<ElasticQuota> all() {
    return List.of(root(), unlimited(WellKnown.SYSTEM_QUOTA), unlimited(WellKnown.DEFAULT_QUOTA));
  }

  /** Those of the three that no quota of {@code existing} names (names are cluster-wide). */
  public static List<ElasticQuota> missing(Collection<ElasticQuota> existing) {
    Set<String> names =
        existing.stream().map(quota -> quota.getMetadata().getName()).collect(Collectors.toSet());
    return all().stream().filter(quota -> !names.contains(quota.getMetadata().getName())).toList();
  }

  /** Whether a quota is one of the three, which are recreated when deleted. */
  public static boolean isSystemQuota(String name) {
    return all().stream().anyMatch(quota -> quota.getMetadata().getName().equals(name));
  }

  private static ElasticQuota root() {
    ElasticQuota root = quota(WellKnown.ROOT_QUOTA);
    root.getMetadata()
        .setLabels(
            Map.of(
                WellKnown.QUOTA_IS_PARENT, "true",
                WellKnown.QUOTA_ALLOW_LENT_RESOURCE, "false",
                WellKnown.QUOTA_PARENT, ""));
    root.setSpec(new ElasticQuotaSpec());
    return root;
  }

  private static ElasticQuota unlimited(String name) {
    ElasticQuota quota = quota(name);
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    Map<String, Quantity> max = new TreeMap<>();
    max.put("cpu", new Quantity(UNLIMITED));
    max.put("memory", new Quantity(UNLIMITED));
    spec.setMax(max);
    quota.setSpec(spec);
    quota.getMetadata().setAnnotations(Map.of(WellKnown.QUOTA_RUNTIME, UNLIMITED_JSON));
    return quota;
  }

  private static ElasticQuota quota(String name) {
    ElasticQuota quota = new ElasticQuota();
    quota.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NAMESPACE).build());
    return quota;
  }
}
