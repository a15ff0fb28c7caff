package io.koord4j.webhook.admission.quota;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.webhook.admission.Reviews;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ElasticQuotaDefaultsTest {
  private final ElasticQuotaDefaults defaults = new ElasticQuotaDefaults(List::of);

  @Test
  void absentParentBecomesTheRootAndSharedWeightTheMax() {
    ElasticQuota quota =
        Quotas.quota("team-a", "", false, Map.of("cpu", "1"), Map.of("memory", "1Gi", "cpu", "4"));

    ElasticQuota defaulted = ElasticQuotaDefaults.withDefaults(quota, List::of);

    assertThat(defaulted.getMetadata().getLabels())
        .containsEntry(WellKnown.QUOTA_PARENT, WellKnown.ROOT_QUOTA);
    assertThat(defaulted.getMetadata().getAnnotations())
        .containsEntry(WellKnown.QUOTA_SHARED_WEIGHT, "{\"cpu\":\"4\",\"memory\":\"1Gi\"}");
  }

  @Test
  void givenValuesAreKept() {
    ElasticQuota quota = Quotas.leaf("team-a", "org", "1", "4");
    quota.getMetadata().setAnnotations(Map.of(WellKnown.QUOTA_SHARED_WEIGHT, "{\"cpu\":\"1\"}"));

    AdmissionReview request = Reviews.create(quota);
    AdmissionReview answer = defaults.handle(request);

    assertThat(answer.getResponse().getAllowed()).isTrue();
    assertThat(answer.getResponse().getPatch()).isNull();
  }

  @Test
  void emptyParentIsPatchedToTheRoot() {
    ElasticQuota quota = Quotas.withLabel(Quotas.leaf("team-a", "", "1", "4"), WellKnown.QUOTA_PARENT, "");

    AdmissionReview request = Reviews.create(quota);
    JsonNode stored = Reviews.patched(request, defaults.handle(request));

    assertThat(stored.path("metadata").path("labels").path(WellKnown.QUOTA_PARENT).asText())
        .isEqualTo(WellKnown.ROOT_QUOTA);
    assertThat(stored.path("metadata").path("annotations").path(WellKnown.QUOTA_SHARED_WEIGHT).asText())
        .isEqualTo("{\"cpu\":\"4\"}");
  }

  @Test
  void aChildWithoutATreeIdTakesItsParentsTreeId() {
    ElasticQuota parent = Quotas.withLabel(Quotas.group("org", "", "4", "8"), WellKnown.QUOTA_TREE_ID, "gpu-pool");
    ElasticQuota child = Quotas.leaf("team-a", "org", "1", "4");

    ElasticQuota defaulted = ElasticQuotaDefaults.withDefaults(child, () -> List.of(parent));

    assertThat(defaulted.getMetadata().getLabels()).containsEntry(WellKnown.QUOTA_TREE_ID, "gpu-pool");
    assertThat(ElasticQuotaRules.onWrite(defaulted, List.of(parent))).isEmpty();
  }
}
