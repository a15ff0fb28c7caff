package io.koord4j.quota;

import java.util.Objects;

/**
 * One ElasticQuota as the quota tree sees it, in plain values.
 *
 * @param name unique cluster-wide
 * @param parent parent quota name; empty means the implicit root {@value QuotaTree#ROOT}
 * @param min resources the quota is entitled to; it may lend what it does not request
 * @param max upper bound; its key set is the set of resources this quota governs
 * @param sharedWeight weight when sharing spare resources among hungry siblings; when empty it
 *     defaults to {@code max}, as in Koordinator (a given weight is taken as is: absent = 0)
 * @param guaranteed resources the quota keeps at least, even above {@code min}
 * @param allowLentResource false when the quota keeps its {@code min} even while idle
 * @param isParent true for inner quotas; units may only use leaf quotas
 * @param treeTotal for the root of its own quota tree (an ElasticQuotaProfile's root, directly
 *     under {@value QuotaTree#ROOT}), what that tree shares: its runtime is split from this
 *     instead of from the cluster's total, which the default tree gets less this; null for every
 *     other quota
 */
public record QuotaSpec(
    String name,
    String parent,
    ResourceVector min,
    ResourceVector max,
    ResourceVector sharedWeight,
    ResourceVector guaranteed,
    boolean allowLentResource,
    boolean isParent,
    ResourceVector treeTotal) {

  public QuotaSpec {
    Objects.requireNonNull(name, "name");
    parent = parent == null ? "" : parent;
    min = min == null ? ResourceVector.EMPTY : min;
    max = max == null ? ResourceVector.EMPTY : max;
    sharedWeight = sharedWeight == null || sharedWeight.size() == 0 ? max : sharedWeight;
    guaranteed = guaranteed == null ? ResourceVector.EMPTY : guaranteed;
  }

  /** A lending leaf quota with default weight and nothing guaranteed. */
  public static QuotaSpec leaf(String name, String parent, ResourceVector min, ResourceVector max) {
    return new QuotaSpec(name, parent, min, max, null, null, true, false, null);
  }

  /** A lending parent quota with default weight and nothing guaranteed. */
  public static QuotaSpec group(
      String name, String parent, ResourceVector min, ResourceVector max) {
    return new QuotaSpec(name, parent, min, max, null, null, true, true, null);
  }

  public QuotaSpec withSharedWeight(ResourceVector weight) {
    return new QuotaSpec(
        name, parent, min, max, weight, guaranteed, allowLentResource, isParent, treeTotal);
  }

  public QuotaSpec withGuaranteed(ResourceVector amount) {
    return new QuotaSpec(
        name, parent, min, max, sharedWeight, amount, allowLentResource, isParent, treeTotal);
  }

  public QuotaSpec withoutLending() {
    return new QuotaSpec(
        name, parent, min, max, sharedWeight, guaranteed, false, isParent, treeTotal);
  }

  /** The quota as the root of a tree of its own that shares {@code total}. */
  public QuotaSpec withTreeTotal(ResourceVector total) {
    return new QuotaSpec(
        name, parent, min, max, sharedWeight, guaranteed, allowLentResource, isParent, total);
  }
}
