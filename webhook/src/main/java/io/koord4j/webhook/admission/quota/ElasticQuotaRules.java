package io.koord4j.webhook.admission.quota;

import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quantity.ResourceQuantities;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.QuotaTree;
import io.koord4j.quota.QuotaViolation.Field;
import io.koord4j.quota.QuotaViolation;
import io.koord4j.quota.kube.ElasticQuotaSpecs;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Koordinator's ElasticQuota rules for one change, as a pure function of the changed object and
 * the quotas that exist. The tree rules are the quota tree's ({@link QuotaTree#violations}); this
 * class only decides which broken rules the change is to blame for (those the tree did not break
 * before), and says where in the changed object each one is, so a pre-existing problem elsewhere
 * never blocks an unrelated change.
 */
public final class ElasticQuotaRules {
  private ElasticQuotaRules() {}

  /**
   * What is wrong with creating or updating {@code quota}; empty when it is allowed.
   *
   * @param existing every quota in the cluster, including the old version of {@code quota}
   */
  public static List<String> onWrite(ElasticQuota quota, Collection<ElasticQuota> existing) {
    if (isRoot(quota)) {
      return List.of(); // the root's object only shows the implicit root; no tree rule applies
    }
    List<ElasticQuota> others =
        existing.stream().filter(other -> !sameObject(other, quota) && !isRoot(other)).toList();
    List<QuotaSpec> before =
        existing.stream().filter(other -> !isRoot(other)).map(ElasticQuotaSpecs::parse).toList();
    QuotaSpec written = ElasticQuotaSpecs.parse(quota);
    List<QuotaSpec> after =
        new ArrayList<>(others.stream().map(ElasticQuotaSpecs::parse).toList());
    after.add(written);

    Set<QuotaViolation> known = Set.copyOf(QuotaTree.violations(before, ResourceQuantities::format));
    List<String> messages = new ArrayList<>();
    for (QuotaViolation violation : QuotaTree.violations(after, ResourceQuantities::format)) {
      if (!known.contains(violation)) {
        messages.add(describe(violation, written, after));
      }
    }
    messages.addAll(treeIdMismatches(quota, others));
    return messages;
  }

  /** What is wrong with deleting {@code quota}: a parent cannot go while it has children. */
  public static List<String> onDelete(ElasticQuota quota, Collection<ElasticQuota> existing) {
    String name = quota.getMetadata().getName();
    List<String> children =
        existing.stream()
            .filter(other -> name.equals(parentOf(other)))
            .map(other -> "\"" + other.getMetadata().getName() + "\"")
            .sorted()
            .toList();
    if (children.isEmpty()) {
      return List.of();
    }
    return List.of(
        "metadata.name: quota \"" + name + "\" cannot be deleted while it has children ("
            + String.join(", ", children) + "); move or delete them first");
  }

  /** The violation as a path in the written object, and the rule. */
  private static String describe(
      QuotaViolation violation, QuotaSpec written, List<QuotaSpec> after) {
    if (violation.quota().equals(written.name())) {
      return QuotaFields.path(violation.field(), violation.resource()) + ": " + violation.rule();
    }
    boolean childOfWritten =
        after.stream()
            .anyMatch(
                spec -> spec.name().equals(violation.quota())
                    && spec.parent().equals(written.name()));
    if (violation.field() == Field.PARENT && childOfWritten && !written.isParent()) {
      return QuotaFields.IS_PARENT + ": must be \"true\" while the quota has children: "
          + violation;
    }
    // A rule broken on the parent (children's min) or on a child (max keys, loops).
    return QuotaFields.path(violation.field(), violation.resource()) + ": " + violation;
  }

  /** A quota's tree-id must equal its parent's, and so its children's. */
  private static List<String> treeIdMismatches(ElasticQuota quota, List<ElasticQuota> others) {
    String name = quota.getMetadata().getName();
    String treeId = treeIdOf(quota);
    List<String> messages = new ArrayList<>();
    others.stream()
        .filter(other -> other.getMetadata().getName().equals(parentOf(quota)))
        .filter(parent -> !treeIdOf(parent).equals(treeId))
        .forEach(parent -> messages.add(mismatch(treeId, "parent", parent)));
    others.stream()
        .filter(other -> name.equals(parentOf(other)))
        .filter(child -> !treeIdOf(child).equals(treeId))
        .forEach(child -> messages.add(mismatch(treeId, "child", child)));
    return messages;
  }

  private static String mismatch(String treeId, String relation, ElasticQuota other) {
    return QuotaFields.TREE_ID + ": " + shown(treeId) + " differs from " + shown(treeIdOf(other))
        + " of " + relation + " \"" + other.getMetadata().getName()
        + "\"; a quota's tree-id must equal its parent's";
  }

  private static String shown(String treeId) {
    return treeId.isEmpty() ? "no tree-id" : "\"" + treeId + "\"";
  }

  private static String treeIdOf(ElasticQuota quota) {
    return ElasticQuotaSpecs.labels(quota).getOrDefault(WellKnown.QUOTA_TREE_ID, "");
  }

  /** The parent's name, or null under the root. */
  private static String parentOf(ElasticQuota quota) {
    String parent = ElasticQuotaSpecs.labels(quota).get(WellKnown.QUOTA_PARENT);
    return parent == null || parent.isEmpty() || parent.equals(QuotaTree.ROOT) ? null : parent;
  }

  private static boolean isRoot(ElasticQuota quota) {
    return QuotaTree.ROOT.equals(quota.getMetadata().getName());
  }

  private static boolean sameObject(ElasticQuota a, ElasticQuota b) {
    return Objects.equals(a.getMetadata().getName(), b.getMetadata().getName())
        && Objects.equals(a.getMetadata().getNamespace(), b.getMetadata().getNamespace());
  }
}
