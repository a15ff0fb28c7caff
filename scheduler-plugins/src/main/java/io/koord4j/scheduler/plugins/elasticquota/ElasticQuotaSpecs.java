package io.koord4j.scheduler.plugins.elasticquota;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import io.koord4j.scheduler.framework.Resources;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/** Reads ElasticQuota objects as the quota tree's plain {@link QuotaSpec}s. */
public final class ElasticQuotaSpecs {
  private ElasticQuotaSpecs() {}

  private static final ObjectMapper JSON = new ObjectMapper();

  public static QuotaSpec from(ElasticQuota quota) {
    Map<String, String> labels = orEmpty(quota.getMetadata().getLabels());
    Map<String, String> annotations = orEmpty(quota.getMetadata().getAnnotations());
    String parent = labels.getOrDefault(WellKnown.QUOTA_PARENT, "");
    boolean hasSpec = quota.getSpec() != null;
    return new QuotaSpec(
        quota.getMetadata().getName(),
        parent.equals(WellKnown.ROOT_QUOTA) ? "" : parent,
        Resources.of(hasSpec ? quota.getSpec().getMin() : null),
        Resources.of(hasSpec ? quota.getSpec().getMax() : null),
        resourceList(annotations.get(WellKnown.QUOTA_SHARED_WEIGHT)),
        resourceList(annotations.get(WellKnown.QUOTA_GUARANTEED)),
        !"false".equals(labels.get(WellKnown.QUOTA_ALLOW_LENT_RESOURCE)),
        "true".equals(labels.get(WellKnown.QUOTA_IS_PARENT)));
  }

  /** The namespaces bound to the quota by its {@code namespaces} annotation (a JSON list). */
  public static List<String> boundNamespaces(ElasticQuota quota) {
    String json = orEmpty(quota.getMetadata().getAnnotations()).get(WellKnown.QUOTA_NAMESPACES);
    if (json == null || json.isBlank()) {
      return List.of();
    }
    try {
      return JSON.readValue(json, new TypeReference<List<String>>() {});
    } catch (IOException e) {
      return List.of();
    }
  }

  /** A JSON ResourceList annotation; a malformed one counts as absent, as in Koordinator. */
  private static ResourceVector resourceList(String json) {
    if (json == null || json.isBlank()) {
      return null;
    }
    try {
      Map<String, Quantity> quantities =
          JSON.readValue(json, new TypeReference<Map<String, Quantity>>() {});
      return Resources.of(quantities);
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }
}
