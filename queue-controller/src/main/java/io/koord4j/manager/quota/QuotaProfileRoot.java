package io.koord4j.manager.quota;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.api.quota.ElasticQuotaProfileSpec;
import io.koord4j.api.quota.ElasticQuotaSpec;
import io.koord4j.manager.support.LabelSelectors;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.kube.SystemQuotas;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The root quota an ElasticQuotaProfile keeps, as Koordinator's profile controller makes it: named
 * by the profile, in its namespace, a parent directly under {@code koordinator-root-quota} marked
 * as a tree's root with its profile and tree id, and sized by what the nodes its selector matches
 * hold, times the resource ratio. The size is its min and its {@code total-resource}, which the
 * quota core splits among the tree alone (the default tree gets the cluster less it); its max is
 * unlimited for every resource the nodes hold, as in Koordinator, since the tree's total already
 * bounds it and the webhook keeps the tree's pods on those nodes.
 */
final class QuotaProfileRoot {
  private QuotaProfileRoot() {}

  /**
   * @param current the root quota as it is, or null
   * @throws IllegalArgumentException naming the profile and field when the spec is not usable
   */
  static ElasticQuota desired(ElasticQuotaProfile profile, Collection<Node> nodes, ElasticQuota current) {
    ElasticQuotaProfileSpec spec = profile.getSpec();
    String where = "ElasticQuotaProfile " + profile.getMetadata().getNamespace() + "/" + profile.getMetadata().getName();
    if (spec == null || spec.getQuotaName() == null || spec.getQuotaName().isBlank()) {
      throw new IllegalArgumentException(where + ": spec.quotaName is required");
    }
    if (spec.getNodeSelector() == null) {
      throw new IllegalArgumentException(where + ": spec.nodeSelector is required");
    }
    Map<String, BigDecimal> total = scaled(allocatable(nodes, spec), ratio(spec, where));
    Map<String, Quantity> size = new TreeMap<>(ResourceQuantities.toQuantities(total));
    ElasticQuota root = new ElasticQuota();
    root.setMetadata(new ObjectMetaBuilder()
        .withName(spec.getQuotaName())
        .withNamespace(profile.getMetadata().getNamespace())
        .addToLabels(spec.getQuotaLabels() == null ? Map.of() : spec.getQuotaLabels())
        .addToLabels(WellKnown.QUOTA_IS_PARENT, "true")
        .addToLabels(WellKnown.QUOTA_IS_ROOT, "true")
        .addToLabels(WellKnown.QUOTA_PARENT, WellKnown.ROOT_QUOTA)
        .addToLabels(WellKnown.QUOTA_PROFILE, profile.getMetadata().getName())
        .addToLabels(WellKnown.QUOTA_TREE_ID, treeId(profile, current))
        .addToAnnotations(WellKnown.QUOTA_TOTAL_RESOURCE, Serialization.asJson(size))
        .build());
    ElasticQuotaSpec quotaSpec = new ElasticQuotaSpec();
    quotaSpec.setMin(size);
    quotaSpec.setMax(unlimited(size.keySet()));
    root.setSpec(quotaSpec);
    return root;
  }

  private static Map<String, Quantity> unlimited(Collection<String> resources) {
    Map<String, Quantity> max = new TreeMap<>();
    resources.forEach(resource -> max.put(resource, new Quantity(SystemQuotas.UNLIMITED)));
    return max;
  }

  /** Whether the quota as it is already carries every label, annotation and figure of the desired one. */
  static boolean holds(ElasticQuota current, ElasticQuota desired) {
    if (current == null || current.getSpec() == null) {
      return false;
    }
    Map<String, String> labels = Objects.requireNonNullElse(current.getMetadata().getLabels(), Map.of());
    Map<String, String> annotations = Objects.requireNonNullElse(current.getMetadata().getAnnotations(), Map.of());
    return labels.entrySet().containsAll(desired.getMetadata().getLabels().entrySet())
        && annotations.entrySet().containsAll(desired.getMetadata().getAnnotations().entrySet())
        && amounts(current.getSpec().getMin()).equals(amounts(desired.getSpec().getMin()))
        && amounts(current.getSpec().getMax()).equals(amounts(desired.getSpec().getMax()));
  }

  private static Map<String, BigDecimal> allocatable(Collection<Node> nodes, ElasticQuotaProfileSpec spec) {
    Map<String, BigDecimal> total = new TreeMap<>();
    for (Node node : nodes) {
      Map<String, String> labels = Objects.requireNonNullElse(node.getMetadata().getLabels(), Map.of());
      if (node.getMetadata().getDeletionTimestamp() == null && node.getStatus() != null
          && node.getStatus().getAllocatable() != null && LabelSelectors.matches(spec.getNodeSelector(), labels)) {
        total = ResourceQuantities.sum(total, amounts(node.getStatus().getAllocatable()));
      }
    }
    return total;
  }

  private static BigDecimal ratio(ElasticQuotaProfileSpec spec, String where) {
    String text = spec.getResourceRatio();
    if (text == null || text.isBlank()) {
      return BigDecimal.ONE;
    }
    try {
      BigDecimal ratio = new BigDecimal(text.strip());
      if (ratio.signum() > 0 && ratio.compareTo(BigDecimal.ONE) <= 0) {
        return ratio;
      }
    } catch (NumberFormatException e) {
      // Reported below with the rule.
    }
    throw new IllegalArgumentException(where + ": spec.resourceRatio \"" + text + "\" must be a decimal above 0 and at most 1");
  }

  /** Each amount times the ratio, rounded down to what the resource's unit can hold (milli-CPU, whole units). */
  private static Map<String, BigDecimal> scaled(Map<String, BigDecimal> total, BigDecimal ratio) {
    Map<String, BigDecimal> scaled = new TreeMap<>();
    total.forEach((resource, amount) -> scaled.put(resource,
        amount.multiply(ratio).setScale(ResourceQuantities.CPU.equals(resource) ? 3 : 0, RoundingMode.DOWN)));
    return scaled;
  }

  /** The tree id the quota has, else one derived from the profile: stable across restarts and leaders. */
  private static String treeId(ElasticQuotaProfile profile, ElasticQuota current) {
    String existing = current == null || current.getMetadata().getLabels() == null
        ? null : current.getMetadata().getLabels().get(WellKnown.QUOTA_TREE_ID);
    if (existing != null && !existing.isBlank()) {
      return existing;
    }
    String key = profile.getMetadata().getNamespace() + "/" + profile.getMetadata().getName();
    long bits = UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8)).getMostSignificantBits();
    return Long.toString(bits & Long.MAX_VALUE);
  }

  private static Map<String, BigDecimal> amounts(Map<String, Quantity> quantities) {
    Map<String, BigDecimal> amounts = new TreeMap<>();
    Objects.requireNonNullElse(quantities, Map.<String, Quantity>of())
        .forEach((resource, quantity) -> amounts.put(resource, ResourceQuantities.parse(quantity, resource).stripTrailingZeros()));
    return amounts;
  }
}
