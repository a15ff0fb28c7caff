package io.koord4j.manager.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaProfile;
import io.koord4j.api.quota.ElasticQuotaProfileSpec;
import io.koord4j.manager.support.Json;
import io.koord4j.quota.kube.SystemQuotas;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The root quota of a profile's tree, from the nodes its selector matches. */
class QuotaProfileRootTest {
  private static final List<Node> NODES = List.of(
      node("a-0", "zone-a"), node("a-1", "zone-a"), node("b-0", "zone-b"));

  @Test
  void theRootHoldsTheMatchedNodesTimesTheRatioAndIsMarkedAsItsTreesRoot() {
    ElasticQuota root = QuotaProfileRoot.desired(profile("0.9"), NODES, null);

    assertThat(root.getMetadata().getName()).isEqualTo("zone-a-root");
    assertThat(root.getMetadata().getNamespace()).isEqualTo("kube-system");
    assertThat(root.getSpec().getMin()).isEqualTo(Map.of(
        "cpu", new Quantity("14400m"), "memory", new Quantity("30923764531"), // 0.9 of 32Gi, rounded down
        "pods", new Quantity("198")));
    assertThat(root.getSpec().getMax()).containsOnlyKeys("cpu", "memory", "pods")
        .containsEntry("cpu", new Quantity(SystemQuotas.UNLIMITED));
    assertThat(root.getMetadata().getLabels())
        .containsEntry("topology.kubernetes.io/zone", "zone-a")
        .containsEntry(WellKnown.QUOTA_IS_PARENT, "true")
        .containsEntry(WellKnown.QUOTA_IS_ROOT, "true")
        .containsEntry(WellKnown.QUOTA_PARENT, WellKnown.ROOT_QUOTA)
        .containsEntry(WellKnown.QUOTA_PROFILE, "zone-a")
        .containsKey(WellKnown.QUOTA_TREE_ID);
    assertThat(root.getMetadata().getAnnotations().get(WellKnown.QUOTA_TOTAL_RESOURCE)).contains("\"cpu\":\"14400m\"");
  }

  @Test
  void theTreeIdIsStableAndAnExistingOneIsKept() {
    String derived = QuotaProfileRoot.desired(profile("1"), NODES, null).getMetadata().getLabels().get(WellKnown.QUOTA_TREE_ID);
    assertThat(QuotaProfileRoot.desired(profile("1"), NODES, null).getMetadata().getLabels())
        .containsEntry(WellKnown.QUOTA_TREE_ID, derived);
    ElasticQuota existing = QuotaProfileRoot.desired(profile("1"), NODES, null);
    existing.getMetadata().getLabels().put(WellKnown.QUOTA_TREE_ID, "42");
    assertThat(QuotaProfileRoot.desired(profile("1"), NODES, existing).getMetadata().getLabels())
        .containsEntry(WellKnown.QUOTA_TREE_ID, "42");
  }

  @Test
  void aQuotaHoldsTheDesiredStateUntilAFigureOrLabelDiffers() {
    ElasticQuota desired = QuotaProfileRoot.desired(profile("1"), NODES, null);
    ElasticQuota current = Json.copy(desired);
    current.getMetadata().getLabels().put("someone-else", "x");
    assertThat(QuotaProfileRoot.holds(current, desired)).isTrue();

    current.getSpec().setMin(Map.of("cpu", new Quantity("1")));
    assertThat(QuotaProfileRoot.holds(current, desired)).isFalse();
    assertThat(QuotaProfileRoot.holds(null, desired)).isFalse();
  }

  @Test
  void anUnusableSpecIsRefusedNamingTheField() {
    assertThatThrownBy(() -> QuotaProfileRoot.desired(profile("1.5"), NODES, null))
        .hasMessage("ElasticQuotaProfile kube-system/zone-a: spec.resourceRatio \"1.5\" must be a decimal above 0 and at most 1");
    ElasticQuotaProfile unnamed = profile("1");
    unnamed.getSpec().setQuotaName(" ");
    assertThatThrownBy(() -> QuotaProfileRoot.desired(unnamed, NODES, null)).hasMessageContaining("spec.quotaName is required");
  }

  private static ElasticQuotaProfile profile(String ratio) {
    ElasticQuotaProfile profile = new ElasticQuotaProfile();
    profile.getMetadata().setName("zone-a");
    profile.getMetadata().setNamespace("kube-system");
    ElasticQuotaProfileSpec spec = new ElasticQuotaProfileSpec();
    spec.setQuotaName("zone-a-root");
    spec.setQuotaLabels(Map.of("topology.kubernetes.io/zone", "zone-a"));
    spec.setResourceRatio(ratio);
    spec.setNodeSelector(new LabelSelectorBuilder().addToMatchLabels("topology.kubernetes.io/zone", "zone-a").build());
    profile.setSpec(spec);
    return profile;
  }

  private static Node node(String name, String zone) {
    return new NodeBuilder().withNewMetadata().withName(name).addToLabels("topology.kubernetes.io/zone", zone).endMetadata()
        .withNewStatus().addToAllocatable(Map.of("cpu", new Quantity("8"), "memory", new Quantity("16Gi"), "pods", new Quantity("110")))
        .endStatus().build();
  }
}
