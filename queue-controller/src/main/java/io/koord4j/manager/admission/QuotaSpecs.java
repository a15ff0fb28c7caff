package io.koord4j.manager.admission;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import java.util.Map;
import java.util.Optional;

/** Reads an ElasticQuota as the quota core's {@link QuotaSpec}, with Koordinator's defaults. */
public final class QuotaSpecs {
  private QuotaSpecs() {}

  private static final ObjectMapper JSON = new ObjectMapper();

  public static QuotaSpec from(ElasticQuota quota) {
    Map<String, String> labels = orEmpty(quota.getMetadata().getLabels());
    Map<String, String> annotations = orEmpty(quota.getMetadata().getAnnotations());
    String parent = labels.getOrDefault(WellKnown.QUOTA_PARENT, "");
    return new QuotaSpec(
        quota.getMetadata().getName(),
        parent.equals(WellKnown.ROOT_QUOTA) ? "" : parent,
        ResourceQuantities.toVector(quota.getSpec() == null ? null : quota.getSpec().getMin()),
        ResourceQuantities.toVector(quota.getSpec() == null ? null : quota.getSpec().getMax()),
        resourceList(annotations, WellKnown.QUOTA_SHARED_WEIGHT).orElse(null),
        resourceList(annotations, WellKnown.QUOTA_GUARANTEED).orElse(null),
        !"false".equals(labels.get(WellKnown.QUOTA_ALLOW_LENT_RESOURCE)),
        "true".equals(labels.get(WellKnown.QUOTA_IS_PARENT)));
  }

  /** The namespaces a quota claims through its {@code quota.../namespaces} annotation. */
  public static java.util.List<String> boundNamespaces(ElasticQuota quota) {
    String json = orEmpty(quota.getMetadata().getAnnotations()).get(WellKnown.QUOTA_NAMESPACES);
    if (json == null || json.isBlank()) {
      return java.util.List.of();
    }
    try {
      return JSON.readValue(json, new TypeReference<java.util.List<String>>() {});
    } catch (java.io.IOException e) {
      return java.util.List.of();
    }
  }

  /** A JSON ResourceList annotation; a malformed one is ignored, as if absent. */
  private static Optional<ResourceVector> resourceList(Map<String, String> annotations, String key) {
    String json = annotations.get(key);
    if (json == null || json.isBlank()) {
      return Optional.empty();
    }
    try {
      Map<String, Object> raw = JSON.readValue(json, new TypeReference<Map<String, Object>>() {});
      Map<String, Quantity> quantities = new java.util.TreeMap<>();
      raw.forEach((resource, value) -> quantities.put(resource, new Quantity(String.valueOf(value))));
      return Optional.of(ResourceQuantities.toVector(quantities));
    } catch (java.io.IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }
}
