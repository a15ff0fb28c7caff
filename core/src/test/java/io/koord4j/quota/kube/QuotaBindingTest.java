package io.koord4j.quota.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.testing.TestQuotas;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuotaBindingTest {
  private static final String LABEL = "metadata.labels[quota.scheduling.koordinator.sh/name]: ";
  private static final String KEPT = SystemQuotas.NAMESPACE;

  @Test
  void aQuotaServesTheNamespaceItLivesIn() {
    assertThat(refusal("team-a", "team-a-gpu", quota("team-a-gpu", "team-a"))).isNull();
  }

  @Test
  void aQuotaServesTheNamespacesItsAnnotationLists() {
    assertThat(refusal("team-a", "shared", quota("shared", KEPT, "team-b", "team-a"))).isNull();
  }

  @Test
  void aQuotaOfAnotherNamespaceIsRefusedNamingTheLabelAndWhereTheQuotaIsBound() {
    assertThat(refusal("team-a", "team-b", quota("team-b", "team-b")))
        .isEqualTo(LABEL + "quota \"team-b\" is not bound to namespace \"team-a\" (it lives in \"team-b\" and"
            + " lists no other namespaces)");
    assertThat(refusal("team-a", "nlp", quota("nlp", KEPT, "nlp", "vision")))
        .isEqualTo(LABEL + "quota \"nlp\" is not bound to namespace \"team-a\" (it lives in \"koordinator-system\""
            + " and lists only \"nlp\", \"vision\")");
  }

  @Test
  void aMalformedNamespacesAnnotationBindsNothing() {
    ElasticQuota malformed = quota("team-b", KEPT);
    malformed.getMetadata().setAnnotations(Map.of(WellKnown.QUOTA_NAMESPACES, "team-a"));

    assertThat(refusal("team-a", "team-b", malformed)).contains("is not bound");
  }

  @Test
  void theSystemQuotaServesOnlyKubeSystem() {
    ElasticQuota system = quota(WellKnown.SYSTEM_QUOTA, KEPT, "team-a");

    assertThat(refusal("kube-system", WellKnown.SYSTEM_QUOTA, system)).isNull();
    assertThat(refusal("team-a", WellKnown.SYSTEM_QUOTA, system))
        .isEqualTo(LABEL + "quota \"koordinator-system-quota\" is not bound to namespace \"team-a\" (it serves"
            + " only \"kube-system\")");
    assertThat(refusal(KEPT, WellKnown.SYSTEM_QUOTA, system)).as("the namespace it lives in").isNotNull();
  }

  @Test
  void theDefaultQuotaServesOnlyNamespacesNoOtherQuotaIsBoundTo() {
    ElasticQuota fallback = quota(WellKnown.DEFAULT_QUOTA, KEPT);
    ElasticQuota listing = quota("listing", KEPT, "team-a");
    ElasticQuota living = quota("living", "team-b");

    assertThat(refusal("team-c", WellKnown.DEFAULT_QUOTA, fallback, listing, living)).isNull();
    assertThat(refusal("team-a", WellKnown.DEFAULT_QUOTA, fallback, listing, living))
        .isEqualTo(LABEL + "quota \"koordinator-default-quota\" is not bound to namespace \"team-a\" (it serves"
            + " only namespaces no other quota is bound to, and quota \"listing\" is)");
    assertThat(refusal("team-b", WellKnown.DEFAULT_QUOTA, fallback, listing, living)).contains("\"living\" is");
  }

  @Test
  void parentsAndKoordinatorsOwnQuotasLeaveTheDefaultQuotaToANamespace() {
    ElasticQuota parent = quota("org", KEPT, "team-a");
    parent.getMetadata().setLabels(Map.of(WellKnown.QUOTA_IS_PARENT, "true"));
    ElasticQuota system = quota(WellKnown.SYSTEM_QUOTA, KEPT);

    assertThat(refusal("team-a", WellKnown.DEFAULT_QUOTA, quota(WellKnown.DEFAULT_QUOTA, KEPT), parent)).isNull();
    assertThat(refusal("kube-system", WellKnown.DEFAULT_QUOTA, quota(WellKnown.DEFAULT_QUOTA, KEPT), system))
        .isNull();
  }

  @Test
  void aQuotaThatDoesNotExistIsLeftToAdmission() {
    assertThat(refusal("team-a", "missing", quota("team-b", "team-b"))).isNull();
    assertThat(QuotaBinding.mayCharge("team-a", "missing", Map.of())).isTrue();
  }

  @Test
  void aQuotaFoundWithoutTheLabelIsRefusedWithoutNamingIt() {
    ObjectMeta unlabelled = new ObjectMetaBuilder().withNamespace("team-a").build();

    assertThat(QuotaBinding.refusal(unlabelled, "team-a", "team-a", byName(quota("team-a", KEPT))))
        .contains("quota \"team-a\" is not bound to namespace \"team-a\" (it lives in \"koordinator-system\" and"
            + " lists no other namespaces)");
  }

  @Test
  void mayChargeSaysWhetherTheNamespaceIsBoundToTheQuota() {
    Map<String, ElasticQuota> quotas = byName(quota("team-b", "team-b"));

    assertThat(QuotaBinding.mayCharge("team-b", "team-b", quotas)).isTrue();
    assertThat(QuotaBinding.mayCharge("team-a", "team-b", quotas)).isFalse();
  }

  @Test
  void unlabelledWorkGoesToTheFirstLeafBoundToItsNamespace() {
    Pod pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("team-a").endMetadata().build();
    ElasticQuota parent = quota("a-org", "team-a");
    parent.getMetadata().setLabels(Map.of(WellKnown.QUOTA_IS_PARENT, "true"));
    ElasticQuota listing = quota("z-listing", KEPT, "team-a");

    assertThat(QuotaResolver.resolve(pod, byName(parent, listing, quota("m-living", "team-a")))).isEqualTo("m-living");
    assertThat(QuotaResolver.resolve(pod, byName(parent))).isEqualTo(WellKnown.DEFAULT_QUOTA);
  }

  /** The refusal of a job of {@code namespace} labelled with {@code quota}, or null when allowed. */
  private static String refusal(String namespace, String quota, ElasticQuota... quotas) {
    ObjectMeta job = new ObjectMetaBuilder().withNamespace(namespace).addToLabels(WellKnown.QUOTA_NAME, quota).build();
    return QuotaBinding.refusal(job, namespace, quota, byName(quotas)).orElse(null);
  }

  private static Map<String, ElasticQuota> byName(ElasticQuota... quotas) {
    Map<String, ElasticQuota> byName = new HashMap<>();
    Arrays.stream(quotas).forEach(quota -> byName.put(quota.getMetadata().getName(), quota));
    return byName;
  }

  private static ElasticQuota quota(String name, String namespace, String... listed) {
    return TestQuotas.bound(name, namespace, listed);
  }
}
