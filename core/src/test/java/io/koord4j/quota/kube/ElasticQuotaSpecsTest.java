package io.koord4j.quota.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.api.quota.ElasticQuotaSpec;
import io.koord4j.quota.QuotaSpec;
import io.koord4j.quota.ResourceVector;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ElasticQuotaSpecsTest {

  @Test
  void readsElasticQuotaObjects() {
    ElasticQuota quota =
        quota(
            "team",
            Map.of(WellKnown.QUOTA_PARENT, "org", WellKnown.QUOTA_ALLOW_LENT_RESOURCE, "false"),
            Map.of(
                WellKnown.QUOTA_SHARED_WEIGHT, "{\"cpu\":\"3\"}",
                WellKnown.QUOTA_NAMESPACES, "[\"a\",\"b\"]"),
            Map.of("cpu", new Quantity("1")),
            Map.of("cpu", new Quantity("2"), "memory", new Quantity("1Gi")));

    QuotaSpec read = ElasticQuotaSpecs.from(quota);

    assertThat(read.parent()).isEqualTo("org");
    assertThat(read.min()).isEqualTo(ResourceVector.of("cpu", 1000));
    assertThat(read.max()).isEqualTo(ResourceVector.of("cpu", 2000, "memory", 1L << 30));
    assertThat(read.sharedWeight()).isEqualTo(ResourceVector.of("cpu", 3000));
    assertThat(read.allowLentResource()).isFalse();
    assertThat(read.isParent()).isFalse();
    assertThat(ElasticQuotaSpecs.boundNamespaces(quota)).containsExactly("a", "b");
  }

  @Test
  void readsAQuotaWithKoordinatorsLabelsAndAnnotations() {
    ElasticQuota quota =
        cpuQuota(
            "nlp",
            Map.of(
                WellKnown.QUOTA_PARENT, WellKnown.ROOT_QUOTA,
                WellKnown.QUOTA_ALLOW_LENT_RESOURCE, "false"),
            Map.of(WellKnown.QUOTA_SHARED_WEIGHT, "{\"cpu\":\"3\"}"));

    QuotaSpec spec = ElasticQuotaSpecs.from(quota);

    assertThat(spec.parent()).isEmpty();
    assertThat(spec.isParent()).isFalse();
    assertThat(spec.allowLentResource()).isFalse();
    assertThat(spec.min().get("cpu")).isEqualTo(4000);
    assertThat(spec.max().get("cpu")).isEqualTo(8000);
    assertThat(spec.sharedWeight().get("cpu")).isEqualTo(3000);
  }

  @Test
  void aMalformedWeightAnnotationFallsBackToMax() {
    QuotaSpec spec =
        ElasticQuotaSpecs.from(
            cpuQuota("q", Map.of(), Map.of(WellKnown.QUOTA_SHARED_WEIGHT, "{oops")));

    assertThat(spec.sharedWeight()).isEqualTo(spec.max());
  }

  @Test
  void parsingReadsWhatReadingDoesAndKeepsNegativeAmountsForTheTreeRules() {
    ElasticQuota quota =
        quota(
            "team",
            Map.of(WellKnown.QUOTA_PARENT, WellKnown.ROOT_QUOTA),
            Map.of(WellKnown.QUOTA_GUARANTEED, "{\"cpu\":\"500m\"}"),
            Map.of("cpu", new Quantity("-1")),
            Map.of("cpu", new Quantity("2")));

    QuotaSpec parsed = ElasticQuotaSpecs.parse(quota);

    assertThat(parsed.parent()).isEmpty();
    assertThat(parsed.min()).isEqualTo(ResourceVector.of("cpu", -1000));
    assertThat(parsed.max()).isEqualTo(ResourceVector.of("cpu", 2000));
    assertThat(parsed.guaranteed()).isEqualTo(ResourceVector.of("cpu", 500));
  }

  @Test
  void parsingNamesTheFieldItCannotRead() {
    ElasticQuota badAmount =
        quota("q", Map.of(), Map.of(), Map.of("cpu", new Quantity("lots")), Map.of());
    ElasticQuota badAnnotation =
        cpuQuota("q", Map.of(), Map.of(WellKnown.QUOTA_SHARED_WEIGHT, "{oops"));
    ElasticQuota badAnnotatedAmount =
        cpuQuota("q", Map.of(), Map.of(WellKnown.QUOTA_GUARANTEED, "{\"cpu\":\"x\"}"));

    assertThatThrownBy(() -> ElasticQuotaSpecs.parse(badAmount))
        .hasMessage("spec.min[cpu]: \"lots\" is not a valid quantity");
    assertThatThrownBy(() -> ElasticQuotaSpecs.parse(badAnnotation))
        .hasMessageStartingWith(
            "metadata.annotations[" + WellKnown.QUOTA_SHARED_WEIGHT
                + "]: not a JSON resource list such as {\"cpu\":\"4\"}: ");
    assertThatThrownBy(() -> ElasticQuotaSpecs.parse(badAnnotatedAmount))
        .hasMessage(
            "metadata.annotations[" + WellKnown.QUOTA_GUARANTEED
                + "][cpu]: \"x\" is not a valid quantity");
  }

  @Test
  void aQuantityBeyondTheBoundsIsRefusedNamingTheQuotaAndTheField() {
    ElasticQuota stalling =
        quota(
            "team",
            Map.of(),
            Map.of(),
            Map.of("cpu", new Quantity("1")),
            Map.of("cpu", new Quantity("1e500000001")));
    String rule = "\"1e500000001\" has exponent 500000001, beyond the ±64 a quantity may have";

    assertThatThrownBy(() -> ElasticQuotaSpecs.parse(stalling))
        .hasMessage("spec.max[cpu]: " + rule);
    assertThatThrownBy(() -> ElasticQuotaSpecs.from(stalling))
        .hasMessage("quota \"team\": spec.max[cpu]: " + rule);
  }

  /** A quota with 4 cores of min and 8 of max. */
  private static ElasticQuota cpuQuota(
      String name, Map<String, String> labels, Map<String, String> annotations) {
    return quota(
        name,
        labels,
        annotations,
        Map.of("cpu", new Quantity("4")),
        Map.of("cpu", new Quantity("8")));
  }

  @Test
  void aProfilesRootQuotaRootsATreeSharingItsTotalResource() {
    Map<String, String> rootLabels =
        Map.of(
            WellKnown.QUOTA_PARENT, WellKnown.ROOT_QUOTA,
            WellKnown.QUOTA_IS_ROOT, "true",
            WellKnown.QUOTA_TREE_ID, "42");
    ElasticQuota root =
        cpuQuota("pool-root", rootLabels, Map.of(WellKnown.QUOTA_TOTAL_RESOURCE, "{\"cpu\":\"6\"}"));
    ElasticQuota withoutTotal = cpuQuota("pool-root", rootLabels, Map.of());
    ElasticQuota child =
        cpuQuota(
            "team",
            Map.of(WellKnown.QUOTA_PARENT, "pool-root", WellKnown.QUOTA_TREE_ID, "42"),
            Map.of(WellKnown.QUOTA_TOTAL_RESOURCE, "{\"cpu\":\"6\"}"));

    assertThat(ElasticQuotaSpecs.from(root).treeTotal()).isEqualTo(ResourceVector.of("cpu", 6000));
    assertThat(ElasticQuotaSpecs.from(withoutTotal).treeTotal()).isEqualTo(ResourceVector.EMPTY);
    assertThat(ElasticQuotaSpecs.from(child).treeTotal()).isNull();
  }

  private static ElasticQuota quota(
      String name,
      Map<String, String> labels,
      Map<String, String> annotations,
      Map<String, Quantity> min,
      Map<String, Quantity> max) {
    ElasticQuota quota = new ElasticQuota();
    quota.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withLabels(labels)
            .withAnnotations(annotations)
            .build());
    ElasticQuotaSpec spec = new ElasticQuotaSpec();
    spec.setMin(min);
    spec.setMax(max);
    quota.setSpec(spec);
    return quota;
  }
}
