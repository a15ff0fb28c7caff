package io.koord4j.webhook.admission.quota;

import static io.koord4j.webhook.admission.quota.Quotas.group;
import static io.koord4j.webhook.admission.quota.Quotas.leaf;
import static io.koord4j.webhook.admission.quota.Quotas.quota;
import static io.koord4j.webhook.admission.quota.Quotas.withLabel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.quota.QuotaTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ElasticQuotaRulesTest {
  private static final String PARENT_LABEL =
      "metadata.labels[quota.scheduling.koordinator.sh/parent]";

  private final ElasticQuota org = group("org", "", "10", "100");

  @Test
  void validChildIsAllowed() {
    assertThat(ElasticQuotaRules.onWrite(leaf("team-a", "org", "4", "50"), List.of(org))).isEmpty();
  }

  @Test
  void parentMustExist() {
    assertThat(ElasticQuotaRules.onWrite(leaf("team-a", "team-x", "1", "2"), List.of(org)))
        .containsExactly(PARENT_LABEL + ": parent \"team-x\" does not exist");
  }

  @Test
  void parentMustBeAParentQuota() {
    ElasticQuota plain = leaf("plain", "", "1", "2");

    assertThat(ElasticQuotaRules.onWrite(leaf("team-a", "plain", "1", "2"), List.of(plain)))
        .containsExactly(
            PARENT_LABEL + ": parent \"plain\" is not a parent quota (is-parent is not \"true\")");
  }

  @Test
  void childMaxMayOnlyNameResourcesOfTheParentsMax() {
    ElasticQuota gpuChild =
        quota("team-a", "org", false, Map.of(), Map.of("cpu", "1", "nvidia.com/gpu", "2"));

    assertThat(ElasticQuotaRules.onWrite(gpuChild, List.of(org)))
        .containsExactly(
            "spec.max[nvidia.com/gpu]: max names nvidia.com/gpu, which the max of its parent "
                + "\"org\" does not");
  }

  @Test
  void childrenMinMustFitInTheParentsMin() {
    ElasticQuota first = leaf("team-a", "org", "6", "50");

    assertThat(ElasticQuotaRules.onWrite(leaf("team-b", "org", "6", "50"), List.of(org, first)))
        .containsExactly(
            "spec.min[cpu]: quota \"org\": its children's min cpu sums to 12, above its own min "
                + "(10)");
  }

  @Test
  void parentMinCannotDropBelowItsChildrenMin() {
    ElasticQuota child = leaf("team-a", "org", "6", "50");

    assertThat(ElasticQuotaRules.onWrite(group("org", "", "5", "100"), List.of(org, child)))
        .containsExactly("spec.min[cpu]: its children's min cpu sums to 6, above its own min (5)");
  }

  @Test
  void parentChainMustNotLoop() {
    ElasticQuota a = group("a", "b", "1", "10");
    ElasticQuota b = group("b", "", "1", "10");

    assertThat(ElasticQuotaRules.onWrite(group("b", "a", "1", "10"), List.of(a, b)))
        .contains(PARENT_LABEL + ": its parent chain loops back to it (b -> a -> b)");
  }

  @Test
  void isParentCannotBeClearedWhileTheQuotaHasChildren() {
    ElasticQuota child = leaf("team-a", "org", "1", "2");
    ElasticQuota cleared = withLabel(group("org", "", "10", "100"), WellKnown.QUOTA_IS_PARENT, null);

    assertThat(ElasticQuotaRules.onWrite(cleared, List.of(org, child)))
        .containsExactly(
            "metadata.labels[quota.scheduling.koordinator.sh/is-parent]: must be \"true\" while "
                + "the quota has children: quota \"team-a\": parent \"org\" is not a parent quota "
                + "(is-parent is not \"true\")");
  }

  @Test
  void treeIdMustEqualTheParents() {
    ElasticQuota tree = withLabel(group("org", "", "10", "100"), WellKnown.QUOTA_TREE_ID, "t1");
    ElasticQuota child = withLabel(leaf("team-a", "org", "1", "2"), WellKnown.QUOTA_TREE_ID, "t2");

    assertThat(ElasticQuotaRules.onWrite(child, List.of(tree)))
        .containsExactly(
            "metadata.labels[quota.scheduling.koordinator.sh/tree-id]: \"t2\" differs from \"t1\" "
                + "of parent \"org\"; a quota's tree-id must equal its parent's");
    assertThat(ElasticQuotaRules.onWrite(group("org", "", "10", "100"), List.of(tree, child)))
        .containsExactly(
            "metadata.labels[quota.scheduling.koordinator.sh/tree-id]: no tree-id differs from "
                + "\"t2\" of child \"team-a\"; a quota's tree-id must equal its parent's");
  }

  @Test
  void amountsOfOneQuotaAreChecked() {
    ElasticQuota bad =
        quota("bad", "", false, Map.of("cpu", "3", "memory", "1Gi"), Map.of("cpu", "2"));
    ElasticQuota negative = quota("neg", "", false, Map.of(), Map.of("cpu", "-1"));

    assertThat(ElasticQuotaRules.onWrite(bad, List.of()))
        .containsExactly(
            "spec.min[cpu]: min cpu (3) exceeds max (2)",
            "spec.min[memory]: min names memory, which max does not");
    assertThat(ElasticQuotaRules.onWrite(negative, List.of()))
        .contains("spec.max[cpu]: max cpu is negative (-1)");
  }

  @Test
  void nameMustBeUniqueAcrossNamespaces() {
    ElasticQuota elsewhere = leaf("team-a", "", "1", "2");
    elsewhere.getMetadata().setNamespace("other");

    assertThat(ElasticQuotaRules.onWrite(leaf("team-a", "", "1", "2"), List.of(elsewhere)))
        .containsExactly("metadata.name: the name is used by more than one quota");
  }

  @Test
  void updateReplacesTheOldVersionAndIgnoresProblemsItDidNotCause() {
    ElasticQuota brokenElsewhere = leaf("orphan", "gone", "1", "2");
    ElasticQuota child = leaf("team-a", "org", "4", "50");

    assertThat(ElasticQuotaRules.onWrite(leaf("team-a", "org", "5", "60"), List.of(org, child, brokenElsewhere)))
        .isEmpty();
  }

  @Test
  void aQuotaBelowTheDeepestLevelIsRefusedWhileTheRestOfTheTreeTakesChanges() {
    List<ElasticQuota> chain = new ArrayList<>();
    for (int level = 1; level <= QuotaTree.MAX_DEPTH; level++) {
      chain.add(group("level-" + level, level == 1 ? "" : "level-" + (level - 1), "0", "10"));
    }

    assertThat(ElasticQuotaRules.onWrite(leaf("too-deep", "level-64", "0", "1"), chain))
        .containsExactly(
            PARENT_LABEL + ": it lies deeper than the 64 levels a quota tree may have below the"
                + " root");
    assertThat(ElasticQuotaRules.onWrite(leaf("beside", "level-63", "0", "1"), chain)).isEmpty();
  }

  @Test
  void unreadableAmountIsRefusedWithItsField() {
    ElasticQuota bad = quota("bad", "", false, Map.of(), Map.of("cpu", "lots"));

    assertThatThrownBy(() -> ElasticQuotaRules.onWrite(bad, List.of()))
        .hasMessage("spec.max[cpu]: \"lots\" is not a valid quantity");
  }

  @Test
  void parentWithChildrenCannotBeDeleted() {
    List<ElasticQuota> existing =
        List.of(org, leaf("team-b", "org", "1", "2"), leaf("team-a", "org", "1", "2"));

    assertThat(ElasticQuotaRules.onDelete(org, existing))
        .containsExactly(
            "metadata.name: quota \"org\" cannot be deleted while it has children (\"team-a\", "
                + "\"team-b\"); move or delete them first");
    assertThat(ElasticQuotaRules.onDelete(existing.get(1), existing)).isEmpty();
  }
}
