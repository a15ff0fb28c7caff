package io.koord4j.webhook.admission.quota;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import java.util.HashMap;
import java.util.Map;

/** ElasticQuota objects for tests, built the way a user writes them. */
public final class Quotas {
  private Quotas() {}

  /** A leaf quota under {@code parent} ("" for the root) with cpu min and max in cores. */
  public static ElasticQuota leaf(String name, String parent, String minCpu, String maxCpu) {
    return quota(name, parent, false, Map.of("cpu", minCpu), Map.of("cpu", maxCpu));
  }

  /** A parent quota under {@code parent} ("" for the root) with cpu min and max in cores. */
  public static ElasticQuota group(String name, String parent, String minCpu, String maxCpu) {
    return quota(name, parent, true, Map.of("cpu", minCpu), Map.of("cpu", maxCpu));
  }

  public static ElasticQuota quota(
      String name,
      String parent,
      boolean isParent,
      Map<String, String> min,
      Map<String, String> max) {
    Map<String, String> labels = new HashMap<>();
    if (!parent.isEmpty()) {
      labels.put(WellKnown.QUOTA_PARENT, parent);
    }
    if (isParent) {
      labels.put(WellKnown.QUOTA_IS_PARENT, "true");
    }
    ElasticQuota quota = new ElasticQuota();
    quota.setMetadata(
        new ObjectMetaBuilder().withName(name).withNamespace("team").withLabels(labels).build());
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    spec.setMin(quantities(min));
    spec.setMax(quantities(max));
    quota.setSpec(spec);
    return quota;
  }

  public static ElasticQuota withLabel(ElasticQuota quota, String key, String value) {
    Map<String, String> labels = new HashMap<>(quota.getMetadata().getLabels());
    if (value == null) {
      labels.remove(key);
    } else {
      labels.put(key, value);
    }
    quota.getMetadata().setLabels(labels);
    return quota;
  }

  private static Map<String, Quantity> quantities(Map<String, String> amounts) {
    Map<String, Quantity> quantities = new HashMap<>();
    amounts.forEach((resource, amount) -> quantities.put(resource, new Quantity(amount)));
    return quantities;
  }
}
