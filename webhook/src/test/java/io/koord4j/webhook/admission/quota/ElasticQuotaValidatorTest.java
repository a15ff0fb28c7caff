package io.koord4j.webhook.admission.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.webhook.admission.Reviews;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ElasticQuotaValidatorTest {
  private final ElasticQuota org = Quotas.group("org", "", "10", "100");
  private final ElasticQuotaValidator validator = new ElasticQuotaValidator(() -> List.of(org));

  @Test
  void refusesWithEveryMessageAndCode422() {
    AdmissionReview answer = validator.handle(Reviews.create(Quotas.leaf("a", "x", "3", "2")));

    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getCode()).isEqualTo(422);
    assertThat(answer.getResponse().getStatus().getMessage())
        .isEqualTo(
            "spec.min[cpu]: min cpu (3) exceeds max (2); "
                + "metadata.labels[quota.scheduling.koordinator.sh/parent]: parent \"x\" does not "
                + "exist");
  }

  @Test
  void deleteIsCheckedAgainstTheOldObject() {
    ElasticQuotaValidator withChild =
        new ElasticQuotaValidator(() -> List.of(org, Quotas.leaf("a", "org", "1", "2")));
    AdmissionReview delete = Reviews.review("DELETE", org);
    delete.getRequest().setOldObject(delete.getRequest().getObject());
    delete.getRequest().setObject(null);

    assertThat(withChild.handle(delete).getResponse().getStatus().getMessage())
        .startsWith("metadata.name: quota \"org\" cannot be deleted while it has children");
  }

  @Test
  void unreadableAmountIsRefused() {
    ElasticQuota bad = Quotas.leaf("a", "org", "1", "2");
    bad.getMetadata().setAnnotations(Map.of(WellKnown.QUOTA_SHARED_WEIGHT, "not json"));

    assertThat(validator.handle(Reviews.create(bad)).getResponse().getStatus().getMessage())
        .startsWith("metadata.annotations[quota.scheduling.koordinator.sh/shared-weight]: not a "
            + "JSON resource list");
  }
}
