package io.koord4j.quota.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * ElasticQuota objects as the quota core's {@link QuotaSpec}s, in base units. Controllers read
 * them with {@link #from}, which keeps going on whatever the cluster holds; the validating webhook
 * reads them with {@link #parse}, which says what is wrong and where.
 */
public final class ElasticQuotaSpecs {
  private ElasticQuotaSpecs() {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Quantity>> RESOURCE_LIST =
      new TypeReference<>() {};
  private static final TypeReference<List<String>> NAMES = new TypeReference<>() {};

  /**
   * The quota as controllers read it: a malformed resource-list annotation counts as absent, as
   * in Koordinator.
   *
   * @throws IllegalArgumentException naming the quota and the field, e.g. {@code quota "a":
   *     spec.max[cpu]}, when {@code spec.min} or {@code spec.max} holds a malformed or negative
   *     quantity
   */
  public static QuotaSpec from(ElasticQuota quota) {
    try {
      return spec(
          quota,
          ResourceQuantities.toVector(min(quota), "spec.min"),
          ResourceQuantities.toVector(max(quota), "spec.max"),
          lenientResourceList(quota, WellKnown.QUOTA_SHARED_WEIGHT),
          lenientResourceList(quota, WellKnown.QUOTA_GUARANTEED));
    } catch (IllegalArgumentException e) {
      // Controllers read every quota at once: the message has to say which one.
      throw new IllegalArgumentException(
          "quota \"" + quota.getMetadata().getName() + "\": " + e.getMessage(), e);
    }
  }

  /**
   * The quotas of a tree as controllers read them. The root's own object, which Koordinator
   * creates to show the root, describes the implicit root and is left out.
   */
  public static List<QuotaSpec> belowRoot(Collection<ElasticQuota> quotas) {
    return quotas.stream()
        .filter(quota -> !WellKnown.ROOT_QUOTA.equals(quota.getMetadata().getName()))
        .map(ElasticQuotaSpecs::from)
        .toList();
  }

  /**
   * The quota as the validating webhook reads it. Negative amounts are kept: they are for the
   * tree rules to report.
   *
   * @throws IllegalArgumentException naming the field, e.g. {@code spec.min[cpu]}, when an amount
   *     or a resource-list annotation cannot be read
   */
  public static QuotaSpec parse(ElasticQuota quota) {
    return spec(
        quota,
        ResourceQuantities.toSignedVector(min(quota), "spec.min"),
        ResourceQuantities.toSignedVector(max(quota), "spec.max"),
        strictResourceList(quota, WellKnown.QUOTA_SHARED_WEIGHT),
        strictResourceList(quota, WellKnown.QUOTA_GUARANTEED));
  }

  /** The namespaces bound to the quota by its {@code namespaces} annotation (a JSON list). */
  public static List<String> boundNamespaces(ElasticQuota quota) {
    String json = annotations(quota).get(WellKnown.QUOTA_NAMESPACES);
    if (json == null || json.isBlank()) {
      return List.of();
    }
    try {
      return JSON.readValue(json, NAMES);
    } catch (JsonProcessingException e) {
      return List.of();
    }
  }

  /** The quota's labels; empty when it has none. */
  public static Map<String, String> labels(ElasticQuota quota) {
    Map<String, String> labels = quota.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }

  private static QuotaSpec spec(
      ElasticQuota quota,
      ResourceVector min,
      ResourceVector max,
      ResourceVector sharedWeight,
      ResourceVector guaranteed) {
    Map<String, String> labels = labels(quota);
    return new QuotaSpec(
        quota.getMetadata().getName(),
        parent(labels),
        min,
        max,
        sharedWeight,
        guaranteed,
        !"false".equals(labels.get(WellKnown.QUOTA_ALLOW_LENT_RESOURCE)),
        "true".equals(labels.get(WellKnown.QUOTA_IS_PARENT)),
        treeTotal(quota, labels));
  }

  /**
   * What the quota's own tree shares, when it roots one (labels {@code is-root: "true"} and a
   * {@code tree-id}): its {@code total-resource} annotation, nothing when that is absent or
   * malformed, as in Koordinator. Null for every other quota.
   */
  private static ResourceVector treeTotal(ElasticQuota quota, Map<String, String> labels) {
    String treeId = labels.get(WellKnown.QUOTA_TREE_ID);
    if (!"true".equals(labels.get(WellKnown.QUOTA_IS_ROOT)) || treeId == null || treeId.isBlank()) {
      return null;
    }
    ResourceVector total = lenientResourceList(quota, WellKnown.QUOTA_TOTAL_RESOURCE);
    return total == null ? ResourceVector.EMPTY : total;
  }

  /** "" for the root: the tree takes "" and the root's name alike, and "" is its canonical form. */
  private static String parent(Map<String, String> labels) {
    String parent = labels.getOrDefault(WellKnown.QUOTA_PARENT, "");
    return parent.equals(WellKnown.ROOT_QUOTA) ? "" : parent;
  }

  private static Map<String, Quantity> min(ElasticQuota quota) {
    return quota.getSpec() == null ? null : quota.getSpec().getMin();
  }

  private static Map<String, Quantity> max(ElasticQuota quota) {
    return quota.getSpec() == null ? null : quota.getSpec().getMax();
  }

  /**
   * A JSON resource-list annotation such as {@code runtime}, as controllers read it: null when
   * absent or malformed.
   */
  public static ResourceVector lenientResourceList(ElasticQuota quota, String key) {
    String json = annotations(quota).get(key);
    if (json == null || json.isBlank()) {
      return null;
    }
    try {
      return ResourceQuantities.toVector(JSON.readValue(json, RESOURCE_LIST));
    } catch (JsonProcessingException | IllegalArgumentException e) {
      return null;
    }
  }

  /** A JSON resource-list annotation; null when absent. */
  private static ResourceVector strictResourceList(ElasticQuota quota, String key) {
    String json = annotations(quota).get(key);
    if (json == null || json.isBlank()) {
      return null;
    }
    String path = "metadata.annotations[" + key + "]";
    try {
      return ResourceQuantities.toSignedVector(JSON.readValue(json, RESOURCE_LIST), path);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          path + ": not a JSON resource list such as {\"cpu\":\"4\"}: " + e.getOriginalMessage());
    }
  }

  private static Map<String, String> annotations(ElasticQuota quota) {
    Map<String, String> annotations = quota.getMetadata().getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }
}
