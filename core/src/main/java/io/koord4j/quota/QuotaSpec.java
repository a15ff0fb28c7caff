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
 */
public record QuotaSpec(
    String name,
    String parent,
    ResourceVector min,
    ResourceVector max,
    ResourceVector sharedWeight,
    ResourceVector guaranteed,
    boolean allowLentResource,
    boolean isParent) {

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
    return new QuotaSpec(name, parent, min, max, null, null, true, false);
  }

  /** A lending parent quota with default weight and nothing guaranteed. */
  public static QuotaSpec group(
      String name, String parent, ResourceVector min, ResourceVector max) {
    return new QuotaSpec(name, parent, min, max, null, null, true, true);
  }

  public QuotaSpec withSharedWeight(ResourceVector weight) {
    return new QuotaSpec(
        name, parent, min, max, weight, guaranteed, allowLentResource, isParent);
  }

  public QuotaSpec withGuaranteed(ResourceVector amount) {
    return new QuotaSpec(
        name, parent, min, max, sharedWeight, amount, allowLentResource, isParent);
  }

  public QuotaSpec withoutLending() {
    return new QuotaSpec(name, parent, min, max, sharedWeight, guaranteed, false, isParent);
  }
}
