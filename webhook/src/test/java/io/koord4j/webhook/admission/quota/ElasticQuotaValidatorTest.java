package io.koord4j.webhook.admission.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.koord4j.api.WellKnown;
import io.koord4j.api.quota.ElasticQuota;
import io.koord4j.webhook.admission.Reviews;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
  void aRefusalIsCheckedAgainstFreshQuotas() {
    ElasticQuota team = Quotas.group("team", "org", "5", "50");
    ElasticQuotaValidator stale = new ElasticQuotaValidator(lagging(List.of(org), List.of(org, team)));

    AdmissionReview child = stale.handle(Reviews.create(Quotas.leaf("a", "team", "1", "2")));
    AdmissionReview orphan = stale.handle(Reviews.create(Quotas.leaf("b", "nowhere", "1", "2")));

    assertThat(child.getResponse().getAllowed()).as("parent created a moment ago").isTrue();
    assertThat(orphan.getResponse().getStatus().getMessage()).contains("\"nowhere\" does not exist");
  }

  @Test
  void aDeleteIsCheckedAgainstFreshQuotas() {
    ElasticQuota child = Quotas.leaf("a", "org", "1", "2");
    ElasticQuotaValidator stale = new ElasticQuotaValidator(lagging(List.of(org), List.of(org, child)));
    AdmissionReview delete = Reviews.review("DELETE", org);
    delete.getRequest().setOldObject(delete.getRequest().getObject());
    delete.getRequest().setObject(null);

    assertThat(stale.handle(delete).getResponse().getAllowed())
        .as("child created a moment ago").isFalse();
  }

  @Test
  void unreadableAmountIsRefused() {
    ElasticQuota bad = Quotas.leaf("a", "org", "1", "2");
    bad.getMetadata().setAnnotations(Map.of(WellKnown.QUOTA_SHARED_WEIGHT, "not json"));

    assertThat(validator.handle(Reviews.create(bad)).getResponse().getStatus().getMessage())
        .startsWith("metadata.annotations[quota.scheduling.koordinator.sh/shared-weight]: not a "
            + "JSON resource list");
  }

  @Test
  @Timeout(10)
  void aQuantityBuiltToStallTheWebhookIsRefusedNamingItsField() {
    AdmissionReview answer =
        validator.handle(Reviews.create(Quotas.leaf("a", "org", "1", "1e500000001")));

    assertThat(answer.getResponse().getAllowed()).isFalse();
    assertThat(answer.getResponse().getStatus().getMessage())
        .isEqualTo(
            "spec.max[cpu]: \"1e500000001\" has exponent 500000001, beyond the ±64 a quantity may"
                + " have");
  }

  /** A cache that has not seen everything the API server holds yet. */
  private static QuotaLookup lagging(List<ElasticQuota> cached, List<ElasticQuota> current) {
    return new QuotaLookup() {
      @Override
      public Collection<ElasticQuota> all() {
        return cached;
      }

      @Override
      public Collection<ElasticQuota> fresh() {
        return current;
      }
    };
  }
}
